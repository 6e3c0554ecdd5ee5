import { nextTurn } from '../turns.ts';
import type { Store } from '../store/port.ts';
import { canWriteAll, type Actor } from '../actor.ts';
import { CrmError, validationError } from '../errors.ts';
import { classifyContacts, CONTACTS } from '../graph/classify.ts';
import { GRAPH_LIMITS } from '../graph/limits.ts';
import type { Scored } from '../graph/scoring.ts';
import { CATEGORIES, STRENGTHS, type Category, type Classification, type Strength } from '../graph/types.ts';
import { isIdOf } from '../ids.ts';
import { diffOf, eventFor } from './events.ts';
import type { RecordService } from './records.ts';

export interface ClassifiedContact extends Scored {
  record_id: string;
  display_name: string;
}

export interface ClassifyResult {
  items: ClassifiedContact[];
  counts: { by_category: Record<Category, number>; by_strength: Record<Strength, number> };
  classified_at: string;
}

/** Contacts read and saved per round trip when the whole workspace is classified. */
const PAGE = 500;

/**
 * contacts.classify: scores contacts from their graph neighbourhood (src/domain/graph) and, unless
 * `persist` is false, saves the results so graph.query can show and filter them. Each contact whose
 * category or strength changed gets a `classify` event on its timeline. `clock` is injectable so
 * the answer is reproducible.
 */
export class ClassifyService {
  constructor(
    private readonly store: Store,
    private readonly actor: Actor,
    private readonly records: RecordService,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private get ws(): string {
    return this.actor.workspace_id;
  }

  async classify(input: { record_ids?: readonly string[] | null; persist?: boolean | null }): Promise<ClassifyResult> {
    const now = this.clock();
    const classifiedAt = now.toISOString();
    const persist = input.persist ?? true;
    const byCategory = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
    const byStrength = Object.fromEntries(STRENGTHS.map((s) => [s, 0])) as Record<Strength, number>;
    const items: Array<Scored & { record_id: string }> = [];

    const run = async (ids: readonly string[]) => {
      const scored = await classifyContacts(this.store, this.ws, ids, now);
      for (const id of ids) {
        const s = scored.get(id)!;
        byCategory[s.category]++;
        byStrength[s.strength]++;
        if (items.length < GRAPH_LIMITS.classifyMax) items.push({ record_id: id, ...s });
      }
      if (persist) await this.save(ids, scored, classifiedAt);
    };

    if (input.record_ids) {
      const ids = await this.contacts(input.record_ids);
      if (persist) await this.assertCanSave(input.record_ids, ids);
      await run(ids);
    } else {
      if (persist && !canWriteAll(this.actor)) {
        throw new CrmError('permission_denied', 'a member saves classifications only of contacts assigned to them: give their record_ids, or persist: false to classify the whole workspace without saving', {
          role: this.actor.role, param: 'record_ids',
        });
      }
      for (let after: string | null = null; ;) {
        const ids = await this.store.recordIdsOf(this.ws, CONTACTS, after, PAGE);
        if (ids.length) await run(ids);
        if (ids.length < PAGE) break;
        after = ids.at(-1)!;
        // Other calls run between two pages. Saving gave them that turn (a write waits for its
        // group); reading only, an embedded store answers at once, and 104k contacts held every
        // other call for 5 s.
        await nextTurn();
      }
    }
    const names = await this.records.summaries(items.map((i) => i.record_id));
    return {
      items: items.map((i) => ({ record_id: i.record_id, display_name: names.get(i.record_id)?.display_name ?? '', category: i.category,
        strength: i.strength, score: i.score, reasons: i.reasons })),
      counts: { by_category: byCategory, by_strength: byStrength },
      classified_at: classifiedAt,
    };
  }

  /** The given ids, distinct, in order: each a live contact of the workspace (404 when missing, 400 when not a contact). */
  private async contacts(ids: readonly string[]): Promise<string[]> {
    if (ids.length > GRAPH_LIMITS.classifyMax) {
      throw validationError('record_ids', `record_ids may hold at most ${GRAPH_LIMITS.classifyMax} contacts`, { rule: 'max_items', max: GRAPH_LIMITS.classifyMax });
    }
    const found = new Map((await this.store.graphRecords(this.ws, ids.filter((id) => isIdOf('record', id)))).map((r) => [r.id, r]));
    ids.forEach((id, i) => {
      const record = found.get(id);
      if (!isIdOf('record', id)) throw validationError(`record_ids[${i}]`, `record_ids[${i}] must be a record id, got ${JSON.stringify(id.slice(0, 100))}`, { rule: 'format' });
      if (!record) throw new CrmError('not_found', `record_ids[${i}]: record ${JSON.stringify(id)} was not found`, { param: `record_ids[${i}]`, resource: 'record', id });
      if (record.object_type_slug !== CONTACTS) {
        throw validationError(`record_ids[${i}]`, `record_ids[${i}]: ${id} is a ${record.object_type_slug} record; contacts.classify classifies contacts only`, { rule: 'not_a_contact' });
      }
    });
    return [...new Set(ids)];
  }

  /**
   * Saving a classification writes the contact (its category, strength and a timeline event), so a
   * Member may save only those assigned to them, as for any other write; reading one is open.
   */
  private async assertCanSave(given: readonly string[], ids: readonly string[]): Promise<void> {
    if (canWriteAll(this.actor)) return;
    const foreign = (await this.store.getRecords(this.ws, ids)).find((r) => r.assignee_id !== this.actor.user_id);
    if (!foreign) return;
    const param = `record_ids[${given.indexOf(foreign.id)}]`;
    throw new CrmError('permission_denied', `${param}: a member may only save classifications of contacts assigned to them; ${foreign.id} is not (persist: false classifies without saving)`, {
      role: this.actor.role, param, record_id: foreign.id,
    });
  }

  private async save(ids: readonly string[], scored: Map<string, Scored>, classifiedAt: string): Promise<void> {
    const before = new Map((await this.store.getClassifications(this.ws, ids)).map((c) => [c.record_id, c]));
    const rows: Omit<Classification, 'workspace_id'>[] = ids.map((id) => {
      const { category, strength, score, reasons } = scored.get(id)!;
      return { record_id: id, category, strength, score, reasons, classified_at: classifiedAt };
    });
    const events = rows.flatMap((row) => {
      const old = before.get(row.record_id);
      const diff = diffOf({ category: old?.category, strength: old?.strength }, { category: row.category, strength: row.strength });
      return diff ? [eventFor(this.actor, 'classify', 'record', row.record_id, [row.record_id], diff)] : [];
    });
    await this.store.saveClassifications(this.ws, rows, events);
  }
}
