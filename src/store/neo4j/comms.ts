import { notFound } from '../../domain/errors.ts';
import type { CallStyle, TimelineEvent } from '../../domain/types.ts';
import type { Comm, CommKind, CommPatch, CommQuery, NewComm, UsageCount } from '../../domain/store/port-comms.ts';
import type { NewEvent } from '../../domain/store/port-work.ts';
import type { Connection, Tx } from './connection.ts';
import * as Q from './cypher/comms.ts';
import { setLinks } from './resources.ts';
import { props, toEvent, type Props } from './rows.ts';
import { idFor, now } from './stamps.ts';
import { bind } from './statement.ts';
import { writeWithEvents } from './timeline.ts';

const strOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** From a comm projection with its `links` (ids in link order). */
export function toComm(p: Props): Comm {
  const links = [...((p.links as Props[] | null) ?? [])].sort((a, b) => Number(a.position) - Number(b.position));
  return {
    id: String(p.id), workspace_id: String(p.workspace_id), kind: String(p.kind) as CommKind, status: String(p.status),
    tag: strOrNull(p.tag), thread_id: strOrNull(p.thread_id), at: String(p.at), data: JSON.parse(String(p.data)) as Record<string, unknown>,
    record_ids: links.map((link) => String(link.id)), attempts: Number(p.attempts ?? 0), next_attempt_at: strOrNull(p.next_attempt_at),
    created_by: strOrNull(p.created_by), created_at: String(p.created_at), updated_at: String(p.updated_at), deleted_at: strOrNull(p.deleted_at),
  };
}

/** The node properties of a comm (links are edges, `data` is JSON). */
export function commProperties(comm: Comm): Record<string, unknown> {
  const { record_ids: _links, data, ...rest } = comm;
  return { ...rest, data: JSON.stringify(data) };
}

async function find(tx: Tx, workspaceId: string, kind: CommKind, id: string): Promise<Comm | undefined> {
  const p = props(await tx.first(bind(Q.GET_COMM, { workspace_id: workspaceId, kind, id })), 'comm');
  return p && toComm(p);
}

async function create(tx: Tx, workspaceId: string, input: NewComm): Promise<string> {
  const id = idFor(input.kind, input);
  const at = now();
  const comm: Comm = { ...input, id, workspace_id: workspaceId, record_ids: [], attempts: 0, created_at: at, updated_at: at, deleted_at: null };
  await tx.rows(bind(Q.CREATE_COMM, { comm: commProperties(comm) }));
  await setLinks(tx, Q.COMM_LINKS, workspaceId, id, input.record_ids);
  return id;
}

/** Comms methods of the Store on Neo4j (see cypher/comms.ts). */
export function commMethods(conn: Connection) {
  return {
    createComm(workspaceId: string, input: NewComm, events: NewEvent[]): Promise<Comm> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => (await find(tx, workspaceId, input.kind, await create(tx, workspaceId, input)))!);
    },

    async getComm(workspaceId: string, kind: CommKind, id: string): Promise<Comm | null> {
      return (await conn.read((tx) => find(tx, workspaceId, kind, id))) ?? null;
    },

    async listComms(workspaceId: string, query: CommQuery): Promise<{ items: Comm[]; total: number }> {
      const scope = {
        workspace_id: workspaceId, kind: query.kind, statuses: query.status ?? null, tag: query.tag ?? null, thread_id: query.thread_id ?? null,
        from: query.from ?? null, to: query.to ?? null, record_id: query.record_id ?? null,
      };
      return conn.read(async (tx) => {
        const rows = await tx.rows(bind(query.ascending ? Q.LIST_COMMS_ASC : Q.LIST_COMMS_DESC, { ...scope, offset: query.offset, limit: query.limit }));
        const total = Number((await tx.first(bind(Q.COUNT_COMMS, scope)))?.total ?? 0);
        return { items: rows.map((row) => toComm(props(row, 'comm')!)), total };
      });
    },

    updateComm(workspaceId: string, kind: CommKind, id: string, patch: CommPatch, events?: NewEvent[]): Promise<Comm> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const values = Object.fromEntries(Object.entries({ ...patch, data: patch.data === undefined ? undefined : JSON.stringify(patch.data) })
          .filter(([, v]) => v !== undefined));
        if (!(await tx.first(bind(Q.UPDATE_COMM, { workspace_id: workspaceId, kind, id, patch: values, now: now() })))) throw notFound(kind, id);
        return (await find(tx, workspaceId, kind, id))!;
      });
    },

    claimDueComms(kind: CommKind, statuses: readonly string[], at: string, leaseUntil: string, limit: number): Promise<Comm[]> {
      return conn.write(async (tx) => (await tx.rows(bind(Q.CLAIM_DUE_COMMS, { kind, statuses: [...statuses], now: at, lease_until: leaseUntil, limit })))
        .map((row) => toComm(props(row, 'comm')!)));
    },

    async listCommsEverywhere(kind: CommKind, status: string, tag: string): Promise<Comm[]> {
      return conn.read(async (tx) => (await tx.rows(bind(Q.COMMS_EVERYWHERE, { kind, status, tag }))).map((row) => toComm(props(row, 'comm')!)));
    },

    async eventsAfter(workspaceId: string, cursor: string, limit: number): Promise<TimelineEvent[]> {
      return conn.read(async (tx) => (await tx.rows(bind(Q.EVENTS_AFTER, { workspace_id: workspaceId, cursor, limit })))
        .map((row) => toEvent(props(row, 'event')!)));
    },

    async recordDispatch(workspaceId: string, integrationId: string, cursor: string, deliveries: NewComm[]): Promise<void> {
      await conn.write(async (tx) => {
        const integration = await find(tx, workspaceId, 'integration', integrationId);
        if (!integration) throw notFound('integration', integrationId);
        for (const delivery of deliveries) await create(tx, workspaceId, delivery);
        await tx.rows(bind(Q.UPDATE_COMM, {
          workspace_id: workspaceId, kind: 'integration', id: integrationId, patch: { data: JSON.stringify({ ...integration.data, cursor }) }, now: now(),
        }));
      });
    },

    async addUsage(counts: readonly UsageCount[]): Promise<void> {
      if (counts.length) await conn.write((tx) => tx.rows(bind(Q.ADD_USAGE, { counts: counts.map((u) => ({ ...u })) })));
    },

    async getUsage(workspaceId: string, period: string): Promise<Partial<Record<CallStyle, number>>> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.GET_USAGE, { workspace_id: workspaceId, period })));
      return Object.fromEntries(rows.map((row) => [String(row.style), Number(row.count)]));
    },
  };
}
