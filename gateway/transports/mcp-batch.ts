/**
 * A JSON-RPC batch (2025-03-26 traffic) is metered as the messages it carries would be sent one
 * per POST: each request in it (a message with a method and an id: tools/call, tools/list,
 * ping, ...) is one call; notifications and responses ride free. The POST's arrival paid for the
 * first; the rest are counted here before the SDK sees the batch. When the key runs out midway,
 * the first requests that fit run and each later one is answered, in its place in the batch, by
 * a JSON-RPC error carrying `rate_limited` and the retry information (the error a lone request
 * gets as an HTTP 429), so the answer stays one JSON array of responses, as the protocol wants.
 */
import type { Context } from 'koa';
import { isJSONRPCRequest, parseJSONRPCMessage, ProtocolErrorCode as RpcCode } from '@modelcontextprotocol/server';
import { CrmError } from '../../src/domain/errors.ts';
import { meterCalls } from '../ratelimit/index.ts';
import { crmRpcError, MAX_BATCH_MESSAGES, messageError, rpcError } from './mcp-rpc.ts';

type Message = Record<string, unknown>;

/** What of a batch runs, and the answers of the messages that do not. */
export interface MeteredBatch {
  /** The batch without the malformed and refused messages, in order; what the SDK is given. */
  run: unknown[];
  /**
   * A message's index in the batch and the JSON-RPC error answering it in its place: a malformed
   * message (mcp-rpc.ts, messageError), or a request the key cannot afford.
   */
  refused: Map<number, Message>;
}

/**
 * Answers the batch's malformed messages in their places (JSON-RPC 2.0, 6: each gets its own
 * error, and the rest of the batch runs), counts its other requests past the first and splits off
 * the ones the key cannot afford. A malformed message does no work and costs nothing here.
 */
export async function meterBatch(ctx: Context, batch: unknown[]): Promise<MeteredBatch> {
  // The SDK refuses a batch past its bound whole (400) without running any of it.
  if (batch.length > MAX_BATCH_MESSAGES) return { run: batch, refused: new Map() };
  const refused = new Map<number, Message>();
  batch.forEach((m, i) => {
    const error = messageError(m) ?? unreadable(m);
    if (error) refused.set(i, error);
  });
  const requests = batch.flatMap((m, i) => (!refused.has(i) && isJSONRPCRequest(m) ? [i] : []));
  const { admitted, refusal } = await meterCalls(ctx, requests.length, { partial: true });
  if (refusal) {
    for (const i of requests.slice(admitted)) refused.set(i, { ...crmRpcError(refusal), id: (batch[i] as Message).id });
  }
  return { run: refused.size ? batch.filter((_, i) => !refused.has(i)) : batch, refused };
}

/**
 * What messageError lets through that the SDK's own message schema still refuses (an id that is
 * null, fractional, a boolean or an object; a key JSON-RPC does not define; notification params
 * that are not an object, a malformed response): the SDK refused the whole batch for one of them.
 * Answered in its place like any malformed message, with its id when that is a readable one.
 */
function unreadable(m: unknown): Message | null {
  try {
    parseJSONRPCMessage(m);
    return null;
  } catch {
    const id = (m as Message).id;
    const readable = typeof id === 'string' || Number.isSafeInteger(id);
    return { ...rpcError(RpcCode.InvalidRequest, 'not a JSON-RPC 2.0 request, notification or response: check its id (a string or an integer) and keys'), id: readable ? id : null };
  }
}

/**
 * The answer to the whole batch: the SDK's responses to what ran (one object when it ran one
 * request, none when nothing ran) with the refusals put back where their messages stood, matched by id.
 */
export function mergeAnswers(batch: unknown[], metered: MeteredBatch, answered: unknown): Message[] {
  const responses = (answered === undefined ? [] : Array.isArray(answered) ? answered : [answered]) as Message[];
  const byId = new Map<string, Message[]>();
  for (const r of responses) {
    const key = JSON.stringify(r.id ?? null);
    byId.set(key, [...(byId.get(key) ?? []), r]);
  }
  const merged: Message[] = [];
  batch.forEach((m, i) => {
    const refusal = metered.refused.get(i);
    if (refusal) merged.push(refusal);
    else if (isJSONRPCRequest(m)) {
      const answer = byId.get(JSON.stringify(m.id))?.shift();
      if (answer) merged.push(answer);
    }
  });
  // Anything the SDK answered that no request claimed (it should not happen) is still sent.
  for (const rest of byId.values()) merged.push(...rest);
  return merged;
}

/**
 * The most tool-result text one batch answers, in UTF-16 units of the results' JSON (what REST
 * would send for them). The SDK makes a batch's answer one string holding each result twice (as
 * structuredContent and escaped in its text block, up to three times the JSON), and a string past
 * V8's bound (2^29 units) made it drop the answer without a word: a batch of three pages of
 * 100 large records was never answered.
 */
export const BATCH_ANSWER_MAX = 64 * 1024 * 1024;

/** What is left of one batch's answer budget; results are charged in the order they finish. */
export interface AnswerBudget {
  left: number;
}

export function answerBudget(): AnswerBudget {
  return { left: BATCH_ANSWER_MAX };
}

/**
 * Charges a finished tools/call to its batch's budget. A read whose result passes what is left is
 * refused in its place with payload_too_large (nothing is lost: it changed nothing, and alone or in
 * a smaller batch it is answered); a write is always answered, since it ran.
 */
export function chargeAnswer(budget: AnswerBudget, tool: string, readOnly: boolean, text: string): CrmError | null {
  if (readOnly && text.length > budget.left) {
    return new CrmError('payload_too_large',
      `the answers of this batch would pass ${BATCH_ANSWER_MAX} characters of tool results; call ${tool} alone or in a smaller batch`,
      { limit: BATCH_ANSWER_MAX, tool });
  }
  budget.left -= text.length;
  return null;
}
