import { newId, type IdKind } from '../../domain/ids.ts';

/** Timestamps are ISO-8601 in UTC with milliseconds, as everywhere in the service. */
export const now = (): string => new Date().toISOString();

/** The id a create input carries (the domain may pre-assign it for its timeline event), or a new one. */
export function idFor(kind: IdKind, input: object): string {
  const given = (input as { id?: unknown }).id;
  return typeof given === 'string' && given !== '' ? given : newId(kind);
}
