import type { FieldPatch, NewField, NewObjectType, ObjectTypePatch, Store } from '../store/port.ts';
import type { Actor } from '../actor.ts';
import { CrmError, validationError } from '../errors.ts';
import { validateFieldPatch, validateNewField, validateNewObjectType, validateObjectTypePatch } from '../fields.ts';
import { nearest } from '../suggest.ts';
import type { FieldChange, FieldDef, ObjectType, SavedView } from '../types.ts';
import { newId } from '../ids.ts';
import type { ReportConfig, SavedReport } from '../reports/types.ts';
import { created, diffOf, eventFor } from './events.ts';

/**
 * Object types and their field definitions. Role checks (only Owners and Admins change the data
 * model) are enforced by the GraphQL layer's auth scopes before these methods run.
 */
export class ObjectService {
  /** Object types read during this call, by slug; the data model is read far more than written. */
  private readonly cache = new Map<string, ObjectType>();

  constructor(private readonly store: Store, private readonly actor: Actor) {}

  private get ws(): string {
    return this.actor.workspace_id;
  }

  async list(): Promise<ObjectType[]> {
    const all = await this.store.listObjectTypes(this.ws);
    for (const type of all) this.cache.set(type.slug, type);
    return all;
  }

  /** Drops this call's read of a type, for a write redone because the type changed meanwhile. */
  forget(slug: string): void {
    this.cache.delete(slug);
  }

  /** The live object type of that slug, or null. */
  async find(slug: string): Promise<ObjectType | null> {
    const cached = this.cache.get(slug);
    if (cached) return cached;
    const found = await this.store.getObjectType(this.ws, slug);
    if (found) this.cache.set(slug, found);
    return found;
  }

  /** The live object type, or a not_found that suggests the nearest slug. */
  async get(slug: string, param = 'slug'): Promise<ObjectType> {
    const found = await this.find(slug);
    if (found) return found;
    const slugs = (await this.list()).map((t) => t.slug);
    const suggestion = nearest(slug, slugs);
    throw new CrmError(
      'not_found',
      `${param} ${JSON.stringify(slug)} is not an object type of this workspace${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
      { param, resource: 'object_type', id: slug, allowed: slugs, ...(suggestion ? { suggestion } : {}) },
    );
  }

  async create(input: NewObjectType): Promise<ObjectType> {
    const existing = (await this.list()).map((t) => t.slug);
    const valid = validateNewObjectType(input, { param: '', existingSlugs: existing });
    const id = newId('objectType');
    const event = eventFor(this.actor, 'create', 'object_type', id, [], created({
      slug: valid.slug, name: valid.name, icon: valid.icon, color: valid.color, description: valid.description,
      fields: valid.fields.map((f) => f.slug),
    }));
    return this.remember(await this.store.createObjectType(this.ws, { ...valid, id, standard: false }, [event]));
  }

  async update(slug: string, patch: ObjectTypePatch): Promise<ObjectType> {
    const before = await this.get(slug);
    const valid = validateObjectTypePatch(patch, '');
    const changes = diffOf(pick(before, Object.keys(valid)), valid as Record<string, unknown>);
    const events = changes ? [eventFor(this.actor, 'update', 'object_type', before.id, [], changes)] : [];
    return this.remember(await this.store.updateObjectType(this.ws, slug, valid, events));
  }

  /** Soft delete. Standard types stay; a type that still has records cannot be deleted. */
  async delete(slug: string): Promise<ObjectType> {
    const type = await this.get(slug);
    if (type.standard) {
      throw validationError('slug', `"${slug}" is a standard object type and cannot be deleted`, { rule: 'standard_object' });
    }
    const count = await this.store.countRecords(this.ws, slug);
    if (count > 0) {
      throw new CrmError('conflict', `object type "${slug}" still has ${count} record(s); delete them first`, { param: 'slug', records: count });
    }
    // Reference fields name their target by slug too: left live, a new type taking the slug would
    // become their target, with the old one's ids in their values.
    const referencing = (await this.list()).flatMap((other) => (other.slug === slug ? [] : other.fields
      .filter((f) => f.type === 'record_reference' && !f.archived && f.config.target === slug)
      .map((f) => `${other.slug}.${f.slug}`)));
    if (referencing.length > 0) {
      throw new CrmError('conflict', `object type "${slug}" is the target of the reference field(s) ${referencing.join(', ')}; archive them first`, {
        param: 'slug', rule: 'in_use', fields: referencing,
      });
    }
    // So do the entry fields of lists (of any type), which cannot be archived: the list goes first.
    const holding = (await this.store.listLists(this.ws)).filter((l) => l.object_type_slug !== slug).map((list) => ({
      list, fields: list.fields.filter((f) => f.type === 'record_reference' && !f.archived && f.config.target === slug),
    })).filter((h) => h.fields.length > 0);
    if (holding.length > 0) {
      const entryFields = holding.flatMap((h) => h.fields.map((f) => `${h.list.id}.${f.slug}`));
      const named = holding.map((h) => `"${h.list.name}" (${h.list.id})`);
      throw new CrmError('conflict', `object type "${slug}" is the target of the entry field(s) ${entryFields.join(', ')} of the list(s) ${named.join(', ')}; delete those lists first`, {
        param: 'slug', rule: 'in_use', list_fields: entryFields,
      });
    }
    // Saved reports name their type by slug too: left live, one would run against a new type
    // taking the slug, summing fields of another meaning under the old names.
    const reports = (await this.liveReports()).filter((r) => reportsOn(r, type));
    if (reports.length > 0) {
      throw new CrmError('conflict', `object type "${slug}" is reported on by the saved report(s) ${named(reports)}; delete them first`, {
        param: 'slug', rule: 'in_use', reports: reports.map((r) => r.id),
      });
    }
    // Lists and views name their type by slug: the store refuses while any is live (objectTypeInUse).
    this.cache.delete(slug);
    return this.store.deleteObjectType(this.ws, slug, [eventFor(this.actor, 'delete', 'object_type', type.id, [])]);
  }

  /**
   * Saved views of the type name its fields in their filters, sorts and visible fields, all checked
   * against the live fields when saved: archived under them, a view's filters could no longer be
   * run with records.list, nor its parts be saved again. The views go first (409 `in_use`).
   */
  private async assertNoViewUses(slug: string, fieldSlug: string): Promise<void> {
    const views = (await this.store.listViews(this.ws, { object_type_slug: slug }))
      .filter((v) => v.list_id === null && viewUses(v, fieldSlug));
    if (views.length === 0) return;
    throw new CrmError('conflict', `${slug}.${fieldSlug} is used by the filters, sorts or visible fields of the view(s) ${named(views)}; change or delete them first`, {
      param: 'archived', rule: 'in_use', views: views.map((v) => v.id),
    });
  }

  /**
   * Saved reports of the type name its fields (metric, grouping, time and filter fields), checked
   * against the live fields when saved and again when run: archived under them, a report would
   * only fail when next run, by report_id, with a complaint about a config its caller never sent.
   */
  private async assertNoReportUses(type: ObjectType, fieldSlug: string): Promise<void> {
    const { slug } = type;
    const reports = (await this.liveReports()).filter((r) => reportsOn(r, type) && reportUses(r.config, fieldSlug));
    if (reports.length === 0) return;
    throw new CrmError('conflict', `${slug}.${fieldSlug} is used by the saved report(s) ${named(reports)}; change or delete them first`, {
      param: 'archived', rule: 'in_use', reports: reports.map((r) => r.id),
    });
  }

  /** Every live saved report of the workspace, read a page at a time. */
  private async liveReports(): Promise<SavedReport[]> {
    const all: SavedReport[] = [];
    for (let offset = 0; ; offset += REPORT_PAGE) {
      const { items, total } = await this.store.listReports(this.ws, { offset, limit: REPORT_PAGE });
      all.push(...items);
      if (items.length < REPORT_PAGE || all.length >= total) return all;
    }
  }

  async addField(slug: string, field: NewField): Promise<ObjectType> {
    const type = await this.get(slug);
    const slugs = (await this.list()).map((t) => t.slug);
    const valid = validateNewField(field, { param: 'field', objectSlugs: slugs });
    if (type.fields.some((f) => f.slug === valid.slug)) {
      throw new CrmError('conflict', `object type "${slug}" already has a field "${valid.slug}"`, { param: 'field.slug', field: valid.slug });
    }
    const event = eventFor(this.actor, 'create', 'field', type.id, [], { [valid.slug]: { after: { name: valid.name, type: valid.type } } });
    return this.remember(await this.store.addField(this.ws, slug, valid, [event]));
  }

  /**
   * A reference field comes out of the archive only to the type it was made for. The target is
   * named by slug, so a type made later under the deleted one's slug is another type: the field's
   * values are ids of the deleted type's records, which it does not hold. A type never predates
   * the fields that reference it (a live field's target cannot be deleted), so a target created
   * after the field is such a newcomer.
   */
  private async assertTargetLives(slug: string, field: FieldDef): Promise<void> {
    const target = await this.find(field.config.target!);
    if (target && !madeAfter(target, field)) return;
    const now = target ? `; the object type now called "${target.slug}" was created after it, so it is another type` : '';
    throw new CrmError('conflict', `${slug}.${field.slug} cannot be taken out of the archive: the object type "${field.config.target}" it references was deleted${now}`, {
      param: 'archived', rule: 'target_deleted', target: field.config.target,
    });
  }

  async updateField(slug: string, fieldSlug: string, patch: FieldPatch): Promise<ObjectType> {
    const type = await this.get(slug);
    const field = type.fields.find((f) => f.slug === fieldSlug);
    if (!field) {
      const suggestion = nearest(fieldSlug, type.fields.map((f) => f.slug));
      throw new CrmError(
        'not_found',
        `field_slug "${fieldSlug}" is not a field of ${slug}${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
        { param: 'field_slug', resource: 'field', id: fieldSlug, ...(suggestion ? { suggestion } : {}) },
      );
    }
    // Named as objects.update_field and GraphQL's patch take them: `name`, `options`, `max`.
    const valid = validateFieldPatch(field, patch, '');
    if (valid.archived === true && !field.archived) {
      await this.assertNoViewUses(slug, fieldSlug);
      await this.assertNoReportUses(type, fieldSlug);
    }
    if (valid.archived === false && field.archived && field.type === 'record_reference') await this.assertTargetLives(slug, field);
    const { config: _c, ...flags } = valid;
    const before = { ...pick(field, Object.keys(flags)), ...(valid.config ? { config: field.config } : {}) };
    const changes = diffOf(before, valid as Record<string, unknown>);
    const events = changes ? [eventFor(this.actor, 'update', 'field', type.id, [], prefixed(fieldSlug, changes))] : [];
    return this.remember(await this.store.updateField(this.ws, slug, fieldSlug, valid, events));
  }

  private remember(type: ObjectType): ObjectType {
    this.cache.set(type.slug, type);
    return type;
  }
}

function pick<T extends object>(value: T, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, (value as Record<string, unknown>)[k]]));
}

/** Field changes keyed `<field>.<setting>`, so one object type's timeline reads unambiguously. */
function prefixed(fieldSlug: string, changes: Record<string, FieldChange>): Record<string, FieldChange> {
  return Object.fromEntries(Object.entries(changes).map(([k, v]) => [`${fieldSlug}.${k}`, v]));
}

const REPORT_PAGE = 500;

/** Saved resources as a message names them: `"name" (id)`, comma-separated. */
function named(items: ReadonlyArray<{ name: string; id: string }>): string {
  return items.map((item) => `"${item.name}" (${item.id})`).join(', ');
}

/**
 * Whether a saved report is on this type: it names the slug and was saved since the type was made.
 * One saved before was made for an earlier type of that slug, since deleted (reports.run refuses it).
 */
export function reportsOn(report: SavedReport, type: ObjectType): boolean {
  return report.config.object_type === type.slug && !madeAfter(type, report);
}

/** Whether `a` was created after `b`, by instant: a loaded dump may spell its times otherwise than toISOString. */
function madeAfter(a: { created_at: string }, b: { created_at: string }): boolean {
  return Date.parse(a.created_at) > Date.parse(b.created_at);
}

/** Whether a report config names the field: as its metric, grouping or time field, or in a filter. */
function reportUses(config: ReportConfig, field: string): boolean {
  return config.metric_field === field || config.group_by === field || config.time_field === field || (config.filters ?? []).some((f) => f.field === field);
}

/** Whether a saved view names the field: in its filters (at any depth of $and/$or), sorts or visible fields. */
function viewUses(view: SavedView, field: string): boolean {
  const inFilter = (node: unknown): boolean => {
    if (node === null || typeof node !== 'object') return false;
    if (Array.isArray(node)) return node.some(inFilter);
    return Object.entries(node).some(([key, value]) => (key === '$and' || key === '$or' ? inFilter(value) : key === field));
  };
  return inFilter(view.filters) || view.sorts.some((s) => s.field === field) || view.visible_fields.includes(field);
}
