import type { Params } from './styles.ts';

/** One call of the soak's mix: a tool and its parameters, and what to remember from its result. */
export interface MixCall {
  tool: string;
  params: Params;
  /** Called with the tool result of a successful call. */
  done?: (result: any) => void;
}

const POOL_MAX = 500;

/**
 * The soak's workload over five tool families: about 40% writes (create, update, notes, list
 * entries) and 60% reads (get, list, search, entries, notes, timeline). Record ids are kept in a
 * bounded ring so the soak's own memory stays flat; each created company has a unique domain, so
 * the unique claims are exercised on every create.
 */
export class SoakMix {
  private readonly pool: string[] = [];
  private readonly entered = new Set<string>();
  private next = 0;
  private n = 0;

  constructor(private readonly listId: string, private readonly runTag: string) {}

  /** The next call; `random` in [0, 1) picks it. */
  pick(random: number): MixCall {
    this.n += 1;
    const any = () => this.pool[Math.floor(random * 7919 * this.n) % this.pool.length]!;
    if (this.pool.length < 5 || random < 0.12) return this.create();
    if (random < 0.2) return { tool: 'records.update', params: { record_id: any(), data: { name: `Soak ${this.runTag} ${this.n}` } } };
    if (random < 0.3) return { tool: 'notes.create', params: { title: `Soak note ${this.n}`, body: 'soak', record_ids: [any()] } };
    if (random < 0.38) {
      const id = this.pool.find((r) => !this.entered.has(r));
      if (id === undefined) return this.create();
      this.entered.add(id);
      return { tool: 'lists.bulk_add_entry', params: { list_id: this.listId, entries: [{ record_id: id }] } };
    }
    if (random < 0.55) return { tool: 'records.get', params: { record_id: any() } };
    if (random < 0.68) return { tool: 'records.list', params: { object_type_slug: 'companies', page_size: 20 } };
    if (random < 0.76) return { tool: 'records.search', params: { query: 'soak', object_type_slug: 'companies', page_size: 10 } };
    if (random < 0.84) return { tool: 'lists.entries', params: { list_id: this.listId, page_size: 20 } };
    if (random < 0.92) return { tool: 'notes.list', params: { record_id: any(), page_size: 10 } };
    return { tool: 'timeline.list', params: { record_id: any(), page_size: 10 } };
  }

  private create(): MixCall {
    const i = this.n;
    return {
      tool: 'records.create',
      params: { object_type_slug: 'companies', data: { name: `Soak company ${i}`, domain: `soak-${this.runTag}-${i}.test` } },
      done: (result: { record_id: string }) => {
        if (this.pool.length < POOL_MAX) this.pool.push(result.record_id);
        else {
          this.entered.delete(this.pool[this.next]!);
          this.pool[this.next] = result.record_id;
          this.next = (this.next + 1) % POOL_MAX;
        }
      },
    };
  }
}
