import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { CrmError, type ErrorCode, type ErrorDetails } from '../../../src/domain/errors.ts';
import type {
  AndNode, ComparisonNode, FilterNode, FilterOperator, OrNode, SortSpec, SystemField, ValueKind,
} from '../../../src/domain/filter-ast.ts';
import { STANDARD_OBJECT_TYPES } from '../../../src/domain/standard-objects.ts';
import type { StoredRecord, User, Workspace } from '../../../src/domain/types.ts';
import type { NewRecord, Store } from '../../../src/domain/store/port.ts';

/** What every case file gets: the store under test, available once the suite's beforeAll ran. */
export interface Harness {
  readonly adapter: string;
  readonly store: Store;
}

/** Names that cannot collide with other runs on a shared database. */
export function uniqueName(label: string): string {
  return `conformance ${label} ${randomUUID()}`;
}

/** A fresh workspace with the standard object types (companies, contacts, deals). */
export async function freshWorkspace(h: Harness, label = 'workspace'): Promise<Workspace> {
  return h.store.createWorkspace({ name: uniqueName(label), objectTypes: structuredClone([...STANDARD_OBJECT_TYPES]) });
}

export async function addMember(h: Harness, workspaceId: string, email = `${randomUUID()}@example.com`): Promise<User> {
  return h.store.createUser({ workspace_id: workspaceId, email, name: 'Member', role: 'member' });
}

/** A unique hash, hex like a SHA-256. */
export const randomHash = (): string => randomBytes(32).toString('hex');

export function newRecord(slug: string, data: Record<string, unknown>, extra: Partial<NewRecord> = {}): NewRecord {
  return { object_type_slug: slug, data, uniques: [], refs: [], created_by: null, assignee_id: null, ...extra };
}

/** A contact whose email is claimed as unique, as the domain would write it. */
export function contact(name: string, email?: string): NewRecord {
  return newRecord('contacts', email ? { name, email } : { name }, { uniques: email ? [{ field: 'email', value: email }] : [] });
}

/** Awaits a promise that must reject with a CrmError of the code (and details, when given). */
export async function expectCrmError(promise: Promise<unknown>, code: ErrorCode, details?: ErrorDetails): Promise<CrmError> {
  const outcome = await promise.then((value) => ({ value }), (error: unknown) => ({ error }));
  if (!('error' in outcome)) throw new Error(`expected a ${code} CrmError, but the call resolved`);
  expect(outcome.error).toBeInstanceOf(CrmError);
  const error = outcome.error as CrmError;
  expect(error.code).toBe(code);
  if (details) expect(error.details).toMatchObject(details);
  return error;
}

export const sortedIds = (records: readonly StoredRecord[]): string[] => records.map((r) => r.id).sort();

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// Filter ASTs, built by hand so the suite does not depend on the domain's parser.

export function cmp(
  field: string, op: FilterOperator, value: ComparisonNode['value'] = null, valueKind: ValueKind = 'text', multi = false,
): ComparisonNode {
  return { kind: 'cmp', field, system: false, op, value, valueKind, multi };
}

export const num = (field: string, op: FilterOperator, value: ComparisonNode['value'] = null): ComparisonNode =>
  cmp(field, op, value, 'number');
export const bool = (field: string, op: FilterOperator, value: ComparisonNode['value'] = null): ComparisonNode =>
  cmp(field, op, value, 'boolean');
export const many = (field: string, op: FilterOperator, value: ComparisonNode['value'] = null): ComparisonNode =>
  cmp(field, op, value, 'text', true);

export function sys(field: SystemField, op: FilterOperator, value: ComparisonNode['value'] = null): ComparisonNode {
  return { kind: 'cmp', field, system: true, op, value, valueKind: 'text', multi: false };
}

export const allOf = (...nodes: FilterNode[]): AndNode => ({ kind: 'and', nodes });
export const anyOf = (...nodes: FilterNode[]): OrNode => ({ kind: 'or', nodes });

export function sortBy(field: string, ascending: boolean, valueKind: ValueKind = 'text', system = false): SortSpec {
  return { field, system, valueKind, ascending };
}

export const NEWEST_FIRST: SortSpec = sortBy('created_at', false, 'text', true);
