import type { Store } from '../store/port.ts';
import type { Comm, CommKind, CommQuery, NewComm } from '../store/port-comms.ts';
import { canWriteAll, type Actor } from '../actor.ts';
import { CrmError } from '../errors.ts';
import { newMonotonicId } from '../ids.ts';
import type { FieldChange } from '../types.ts';
import { eventFor } from './events.ts';
import { paging } from './records.ts';
import { requireRecords } from './references.ts';

/**
 * What emails, messages, meetings and tickets share: linked records are checked (live, of this
 * workspace; a Member links only records assigned to them, as with notes), the creation and its
 * timeline event are one store write, and lists page like every other list.
 */
export class CommsBase {
  constructor(protected readonly store: Store, protected readonly actor: Actor) {}

  protected get ws(): string {
    return this.actor.workspace_id;
  }

  /** The distinct record ids, each a live record of the workspace the caller may write about. */
  protected async linkable(recordIds: readonly string[] | undefined, param = 'record_ids'): Promise<string[]> {
    const ids = [...new Set(recordIds ?? [])];
    this.assertMayLink(await requireRecords(this.store, this.ws, ids, param), param);
    return ids;
  }

  /** The Member rule of linked records: only those assigned to the caller; `param` names where they were given. */
  protected assertMayLink(records: ReadonlyArray<{ id: string; assignee_id: string | null }>, param: string): void {
    if (canWriteAll(this.actor)) return;
    const foreign = records.find((r) => r.assignee_id !== this.actor.user_id);
    if (foreign) {
      throw new CrmError('permission_denied', `${param}: a member may only link records assigned to them; ${foreign.id} is not`, { param, record_id: foreign.id });
    }
  }

  /**
   * Creates the item with a `create` event on the timelines of its records, in one transaction. Ids
   * are monotonic so items made in the same millisecond still list in the order they were made.
   */
  protected async insert(kind: Exclude<CommKind, 'delivery'>, input: Omit<NewComm, 'kind' | 'created_by'>,
    diff: Record<string, FieldChange> | null): Promise<Comm> {
    const id = input.id ?? newMonotonicId(kind);
    return this.store.createComm(this.ws, { ...input, id, kind, created_by: this.actor.user_id }, [eventFor(this.actor, 'create', kind, id, input.record_ids, diff)]);
  }

  protected async page(query: Omit<CommQuery, 'offset' | 'limit'>, input: { page?: number | undefined; page_size?: number | undefined }) {
    const { page, pageSize } = paging(input.page, input.page_size);
    const { items, total } = await this.store.listComms(this.ws, { ...query, offset: (page - 1) * pageSize, limit: pageSize });
    return { items, total, page, page_size: pageSize };
  }
}

