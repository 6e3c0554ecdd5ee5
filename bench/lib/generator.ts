import { DEAL_STAGES } from '../../src/domain/standard-objects.ts';
import { newId } from '../../src/domain/ids.ts';
import { Reservoir, seeded } from './random.ts';
import { COMPANY_HEADS, COMPANY_TAILS, DESCRIPTION_PARTS, FIRST_NAMES, JOB_TITLES, LAST_NAMES, MARKETS, PRODUCTS } from './words.ts';

/**
 * Realistic CRM data for the standard object types, deterministic per seed (ids aside): 10%
 * companies, 60% contacts, 30% deals. Records come in batches of whole companies with their
 * contacts and deals, so every reference points inside its batch: a contact works at a company,
 * a deal has a company and one to three of its contacts and an owner. Links (graph.link edges)
 * join random records of the batch and earlier batches, LINKS_PER_RECORD per record, so a dataset
 * of N records has about 10 N relations (field references and links). Bump GENERATOR_VERSION
 * whenever the output changes; it keys the dataset cache.
 */
export const GENERATOR_VERSION = 4;
export const COMPANIES_PER_BATCH = 500;
const MIX = { companies: 0.1, contacts: 0.6 } as const;
/** Links per record: with the field references (about 1.5 per record) a dataset has ~10 relations per record. */
export const LINKS_PER_RECORD = 8.5;
const LINK_TYPES = ['knows', 'knows', 'knows', 'introduced_by', 'works_with', 'partner_of', 'invested_in', 'supplies'];
const STAGE_WEIGHTS = [30, 20, 15, 10, 15, 10];
const INDUSTRIES = ['software', 'financial_services', 'healthcare', 'manufacturing', 'retail', 'education', 'media', 'other'];

export type Slug = 'companies' | 'contacts' | 'deals';

/** A link as a caller would send it to graph.link. */
export interface RawLink {
  from_id: string;
  to_id: string;
  type: string;
}

/** A record as a caller would send it to records.create, with its id pre-assigned. */
export interface RawRecord {
  id: string;
  object_type_slug: Slug;
  data: Record<string, unknown>;
}

/** What the load generator needs to address the dataset: record ids and search terms, and the work data (lists, views, notes, tasks). */
export interface DatasetSample {
  ids: Record<Slug, string[]>;
  searchTerms: string[];
  /** The deals pipeline list (entries with stage, priority and forecast). */
  pipelineListId?: string;
  /** Empty lists of contacts that lists.bulk_add_entry fills, 100 contacts of bulkPool a call (see cases.ts). */
  bulkListIds?: string[];
  bulkPool?: string[];
  viewIds?: string[];
  /** Records with notes (and so timeline events), and users with tasks. */
  notedIds?: string[];
  taskAssignees?: string[];
}

/** The pipeline list of deals: a status field makes it a pipeline. */
export const PIPELINE_LIST = {
  object_type_slug: 'deals', name: 'Bench pipeline',
  fields: [
    { slug: 'stage', name: 'Stage', type: 'status', config: { options: ['lead', 'qualified', 'proposal', 'won', 'lost'] } },
    { slug: 'priority', name: 'Priority', type: 'select', config: { options: ['low', 'medium', 'high'] } },
    { slug: 'forecast', name: 'Forecast', type: 'number' },
  ],
} as const;
/** Lists of contacts that lists.bulk_add_entry writes to, and the contacts it adds (a bounded sample). */
export const BULK_LISTS = 250;
export const BULK_POOL = 10_000;
/** Saved views; records.list[view] reads the first one's rows. */
export const VIEWS = [
  { name: 'Big open deals', object_type_slug: 'deals', filters: { amount: { gte: 50_000 }, stage: { not_in: ['won', 'lost'] } }, sorts: [{ field: 'amount', ascending: false }], visible_fields: ['name', 'amount', 'stage'] },
  { name: 'Software companies', object_type_slug: 'companies', filters: { industry: 'software' }, sorts: [{ field: 'employee_count', ascending: false }], visible_fields: ['name', 'domain'] },
  { name: 'Managers', object_type_slug: 'contacts', filters: { job_title: { contains: 'manager' } }, sorts: [{ field: 'name', ascending: true }], visible_fields: ['name', 'email'] },
] as const;
/** Work data per record: the pipeline takes a sixth of the deals; a note on one record in NOTE_EVERY, a task on one in TASK_EVERY. */
const PIPELINE_SHARE = 1 / 6;
const NOTE_EVERY = 50;
const TASK_EVERY = 100;
const NOTE_KINDS = ['note', 'call', 'meeting', 'email'] as const;
const TASK_STATUSES = ['open', 'open', 'in_progress', 'done'] as const;

/** The work data of a batch, as callers would send it to lists.bulk_add_entry, notes.create and tasks.create. */
export interface BatchWork {
  entries: Array<{ record_id: string; data: Record<string, unknown> }>;
  notes: Array<{ kind: (typeof NOTE_KINDS)[number]; title: string; body: string; record_ids: string[] }>;
  tasks: Array<{ title: string; status: (typeof TASK_STATUSES)[number]; due_at: string; assignee_id: string; record_ids: string[] }>;
}

/** Splits a total into whole batches of companies with their contacts and deals. */
export function batchPlan(total: number): Array<Record<Slug, number>> {
  const companies = Math.max(1, Math.round(total * MIX.companies));
  const contacts = Math.round(total * MIX.contacts);
  const deals = Math.max(0, total - companies - contacts);
  const batches = Math.ceil(companies / COMPANIES_PER_BATCH);
  const share = (n: number, i: number): number => Math.floor((n * (i + 1)) / batches) - Math.floor((n * i) / batches);
  return Array.from({ length: batches }, (_, i) => ({ companies: share(companies, i), contacts: share(contacts, i), deals: share(deals, i) }));
}

export class Generator {
  private readonly rnd: () => number;
  private companyNo = 0;
  private contactNo = 0;
  readonly sample: DatasetSample = { ids: { companies: [], contacts: [], deals: [] }, searchTerms: [] };
  private readonly reservoirs: Record<Slug, Reservoir>;
  private readonly terms: Reservoir;
  /** Every record id so far, for links (a million ids is a few tens of MB). */
  private readonly all: string[] = [];
  /** Links go through their own stream, so the records do not depend on them. */
  private readonly linkRnd: () => number;
  /** So do lists, notes and tasks. */
  private readonly workRnd: () => number;
  private readonly bulkPool: Reservoir;
  private readonly noted: Reservoir;

  constructor(seed: number, private readonly users: readonly string[]) {
    this.rnd = seeded(seed);
    this.linkRnd = seeded(seed ^ 0x11ee);
    this.workRnd = seeded(seed ^ 0x3047);
    // The sample has its own stream, so the data does not depend on the sample size.
    const sampling = seeded(seed ^ 0x5eed);
    const { ids } = this.sample;
    this.reservoirs = { companies: new Reservoir(ids.companies, sampling), contacts: new Reservoir(ids.contacts, sampling), deals: new Reservoir(ids.deals, sampling) };
    this.terms = new Reservoir(this.sample.searchTerms, sampling);
    this.sample.bulkPool = [];
    this.sample.notedIds = [];
    this.sample.taskAssignees = [...users];
    this.bulkPool = new Reservoir(this.sample.bulkPool, sampling, BULK_POOL);
    this.noted = new Reservoir(this.sample.notedIds, sampling);
  }

  /**
   * Lists, notes and tasks on the records of a batch just made: pipeline entries for a share of
   * its deals, notes on some records (a contact's note also names its company), tasks on others.
   */
  work(records: readonly RawRecord[]): BatchWork {
    const out: BatchWork = { entries: [], notes: [], tasks: [] };
    const r = this.workRnd;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
    for (const record of records) {
      if (record.object_type_slug === 'contacts') this.bulkPool.add(record.id);
      if (record.object_type_slug === 'deals' && r() < PIPELINE_SHARE) {
        out.entries.push({
          record_id: record.id,
          data: { stage: pick(PIPELINE_LIST.fields[0].config.options), priority: pick(PIPELINE_LIST.fields[1].config.options), forecast: Math.round(r() * 100) * 1000 },
        });
      }
      const also = typeof record.data.company === 'string' ? [record.data.company] : [];
      if (r() < 1 / NOTE_EVERY) {
        this.noted.add(record.id);
        out.notes.push({
          kind: pick(NOTE_KINDS), title: `${cap(pick(DESCRIPTION_PARTS))} with ${String(record.data.name)}`,
          body: `${String(record.data.name)} ${pick(DESCRIPTION_PARTS)} ${pick(MARKETS)}.`, record_ids: [record.id, ...also],
        });
      }
      if (r() < 1 / TASK_EVERY) {
        const due = new Date(Date.UTC(2026, 0, 1) + Math.floor(r() * 365) * 86_400_000).toISOString().slice(0, 10);
        out.tasks.push({ title: `Follow up ${String(record.data.name)}`, status: pick(TASK_STATUSES), due_at: due, assignee_id: pick(this.users), record_ids: [record.id] });
      }
    }
    return out;
  }

  batch(counts: Record<Slug, number>): RawRecord[] {
    const out: RawRecord[] = [];
    const companies = Array.from({ length: counts.companies }, () => this.company());
    const staff = new Map<string, string[]>(companies.map((c) => [c.id, []]));
    out.push(...companies);
    for (let i = 0; i < counts.contacts; i += 1) {
      const company = this.pick(companies);
      const contact = this.contact(company);
      staff.get(company.id)!.push(contact.id);
      out.push(contact);
    }
    for (let i = 0; i < counts.deals; i += 1) {
      const company = this.pick(companies);
      out.push(this.deal(company, staff.get(company.id)!));
    }
    for (const record of out) this.remember(record);
    return out;
  }

  /**
   * Links for a batch just made (its ids are the last `batchSize` remembered): each from a record
   * of the batch, half of them to another record of the batch (communities), half to any record so
   * far (the graph stays one component).
   */
  links(batchSize: number): RawLink[] {
    const out: RawLink[] = [];
    const start = this.all.length - batchSize;
    const any = (from: number, to: number) => this.all[from + Math.floor(this.linkRnd() * (to - from))]!;
    for (let i = 0; i < Math.round(batchSize * LINKS_PER_RECORD); i++) {
      const from = any(start, this.all.length);
      const to = this.linkRnd() < 0.5 ? any(start, this.all.length) : any(0, this.all.length);
      out.push({ from_id: from, to_id: to, type: LINK_TYPES[Math.floor(this.linkRnd() * LINK_TYPES.length)]! });
    }
    return out;
  }

  private int(min: number, max: number): number {
    return min + Math.floor(this.rnd() * (max - min + 1));
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rnd() * items.length)]!;
  }

  private company(): RawRecord {
    const n = this.companyNo++;
    const head = this.pick(COMPANY_HEADS);
    const tail = this.pick(COMPANY_TAILS);
    const name = `${cap(head)} ${cap(tail)}`;
    return {
      id: newId('record'),
      object_type_slug: 'companies',
      data: {
        name,
        domain: `${head}-${tail}-${n.toString(36)}.com`,
        industry: this.pick(INDUSTRIES),
        employee_count: Math.round(Math.exp(this.rnd() * 10)),
        description: `${name} ${this.pick(DESCRIPTION_PARTS)} ${this.pick(MARKETS)}.`,
      },
    };
  }

  private contact(company: RawRecord): RawRecord {
    const n = this.contactNo++;
    const first = this.pick(FIRST_NAMES);
    const last = this.pick(LAST_NAMES);
    return {
      id: newId('record'),
      object_type_slug: 'contacts',
      data: {
        name: `${cap(first)} ${cap(last)}`,
        email: `${first}.${last}.${n.toString(36)}@${String(company.data.domain)}`,
        phone: `+1 ${this.int(200, 989)} ${this.int(200, 999)} ${this.int(1000, 9999)}`,
        job_title: this.pick(JOB_TITLES),
        company: company.id,
      },
    };
  }

  private deal(company: RawRecord, staff: readonly string[]): RawRecord {
    const contacts = new Set<string>();
    const wanted = Math.min(staff.length, this.int(1, 3));
    while (contacts.size < wanted) contacts.add(this.pick(staff));
    const day = new Date(Date.UTC(2025, 0, 1) + this.int(0, 900) * 86_400_000).toISOString().slice(0, 10);
    return {
      id: newId('record'),
      object_type_slug: 'deals',
      data: {
        name: `${String(company.data.name)} – ${this.pick(PRODUCTS)}`,
        amount: Math.round((500 * Math.exp(this.rnd() * 6)) / 50) * 50,
        stage: this.stage(),
        close_date: day,
        company: company.id,
        ...(contacts.size ? { contacts: [...contacts] } : {}),
        owner: this.pick(this.users),
      },
    };
  }

  private stage(): string {
    let r = this.rnd() * 100;
    for (const [i, w] of STAGE_WEIGHTS.entries()) {
      if ((r -= w) < 0) return DEAL_STAGES[i]!;
    }
    return DEAL_STAGES[0];
  }

  private remember(record: RawRecord): void {
    this.all.push(record.id);
    this.reservoirs[record.object_type_slug].add(record.id);
    if (record.object_type_slug === 'deals') return;
    const [first = '', second = ''] = String(record.data.name).toLowerCase().split(' ');
    // People are found by first name and the start of the last name; companies by both words.
    this.terms.add(record.object_type_slug === 'contacts' ? `${first} ${second.slice(0, 4)}` : `${first} ${second}`);
  }
}

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
