import type { Store } from '../store/port.ts';
import type { ViewPatch } from '../store/port-work.ts';
import { canWriteAll, type Actor } from '../actor.ts';
import { CrmError, validationError } from '../errors.ts';
import { liveFields } from '../fields.ts';
import { SYSTEM_FIELDS } from '../filter-ast.ts';
import { parseFilter, parseSort } from '../filters.ts';
import { newId } from '../ids.ts';
import { nearest } from '../suggest.ts';
import type { ObjectType, SavedView, ViewSort } from '../types.ts';
import { created, diffOf, eventFor } from './events.ts';
import { requireName } from './inputs.ts';
import { fieldSet } from './lists.ts';
import type { ObjectService } from './objects.ts';

export interface ViewView extends Omit<SavedView, 'workspace_id'> {
  view_id: string;
}

export interface ViewInput {
  name?: string;
  object_type_slug?: string;
  list_id?: string | null;
  filters?: Record<string, unknown> | null;
  sorts?: ViewSort[];
  visible_fields?: string[];
}

/**
 * Saved views of an object type or a list: filters, sorts and visible fields checked against the
 * fields when saved. Anyone may save views; a Member changes only the views they created.
 */
export class ViewService {
  constructor(
    private readonly store: Store,
    private readonly actor: Actor,
    private readonly objects: ObjectService,
  ) {}

  private get ws(): string {
    return this.actor.workspace_id;
  }

  /** Views, of one object type or list when given; one that does not exist is a 404 naming it, as lists.list answers. */
  async list(input: { object_type_slug?: string; list_id?: string }): Promise<{ items: ViewView[]; total: number }> {
    if (input.object_type_slug) await this.objects.get(input.object_type_slug, 'object_type_slug');
    if (input.list_id && !(await this.store.getList(this.ws, input.list_id))) {
      throw new CrmError('not_found', `list_id ${JSON.stringify(input.list_id)}: no such list`, { param: 'list_id', resource: 'list', id: input.list_id });
    }
    const views = await this.store.listViews(this.ws, {
      ...(input.object_type_slug ? { object_type_slug: input.object_type_slug } : {}),
      ...(input.list_id ? { list_id: input.list_id } : {}),
    });
    return { items: views.map(viewView), total: views.length };
  }

  async get(viewId: string): Promise<ViewView> {
    return viewView(await this.load(viewId));
  }

  async create(input: ViewInput): Promise<ViewView> {
    const name = requireName(input.name ?? '');
    const { slug, fields } = await this.target(input.object_type_slug, input.list_id ?? null);
    const checked = check(fields, input);
    const id = newId('view');
    const view = await this.store.createView(this.ws, {
      id, name, object_type_slug: slug, list_id: input.list_id ?? null, ...checked, created_by: this.actor.user_id,
    }, [eventFor(this.actor, 'create', 'view', id, [], created({ name, object_type_slug: slug, list_id: input.list_id ?? undefined, ...checked }))]);
    return viewView(view);
  }

  async update(input: ViewInput & { view_id: string }): Promise<ViewView> {
    const view = await this.load(input.view_id);
    this.assertOwn(view);
    const { fields } = await this.target(view.object_type_slug, view.list_id);
    const patch: ViewPatch = { ...check(fields, input) };
    if (input.name !== undefined) patch.name = requireName(input.name);
    if (!Object.keys(patch).length) throw validationError('name', 'give a name, filters, sorts or visible_fields to change', { rule: 'required' });
    const changes = diffOf(
      { name: view.name, filters: view.filters, sorts: view.sorts, visible_fields: view.visible_fields },
      { name: view.name, filters: view.filters, sorts: view.sorts, visible_fields: view.visible_fields, ...patch },
    );
    const events = changes ? [eventFor(this.actor, 'update', 'view', view.id, [], changes)] : [];
    return viewView(await this.store.updateView(this.ws, view.id, patch, events));
  }

  async delete(viewId: string): Promise<ViewView> {
    const view = await this.load(viewId);
    this.assertOwn(view);
    return viewView(await this.store.deleteView(this.ws, view.id, [eventFor(this.actor, 'delete', 'view', view.id, [])]));
  }

  /** The object type slug of the view and the fields its filters may name. */
  private async target(objectSlug: string | undefined, listId: string | null): Promise<{ slug: string; fields: ObjectType }> {
    if (listId) {
      const list = await this.store.getList(this.ws, listId);
      if (!list) throw new CrmError('not_found', `list_id ${JSON.stringify(listId)}: no such list`, { param: 'list_id', resource: 'list', id: listId });
      if (objectSlug !== undefined && objectSlug !== list.object_type_slug) {
        throw validationError('object_type_slug', `list ${listId} holds ${list.object_type_slug}, not ${objectSlug}`, { rule: 'mismatch' });
      }
      return { slug: list.object_type_slug, fields: fieldSet(list) };
    }
    if (objectSlug === undefined) throw validationError('object_type_slug', 'give object_type_slug, or list_id for a view of a list', { rule: 'required' });
    const type = await this.objects.get(objectSlug, 'object_type_slug');
    return { slug: type.slug, fields: type };
  }

  private async load(viewId: string): Promise<SavedView> {
    const view = await this.store.getView(this.ws, viewId);
    if (!view) throw new CrmError('not_found', `view_id ${JSON.stringify(viewId)}: no such view`, { param: 'view_id', resource: 'view', id: viewId });
    return view;
  }

  private assertOwn(view: SavedView): void {
    if (canWriteAll(this.actor) || view.created_by === this.actor.user_id) return;
    throw new CrmError('permission_denied', 'a member may only change views they created', { param: 'view_id' });
  }
}

/** Validates the parts of a view that reference fields; returns only those given. */
function check(fields: ObjectType, input: ViewInput): Pick<ViewPatch, 'filters' | 'sorts' | 'visible_fields'> {
  const out: Pick<ViewPatch, 'filters' | 'sorts' | 'visible_fields'> = {};
  if (input.filters !== undefined) {
    if (input.filters !== null) parseFilter(fields, input.filters, 'filters');
    out.filters = input.filters && Object.keys(input.filters).length ? input.filters : null;
  }
  if (input.sorts !== undefined) {
    out.sorts = input.sorts.map((s, i) => {
      parseSort(fields, s.field, s.ascending, `sorts[${i}].field`);
      return { field: s.field, ascending: s.ascending ?? true };
    });
  }
  if (input.visible_fields !== undefined) {
    const allowed = [...liveFields(fields).map((f) => f.slug), ...SYSTEM_FIELDS];
    input.visible_fields.forEach((f, i) => {
      if (allowed.includes(f)) return;
      const suggestion = nearest(f, allowed);
      throw validationError(`visible_fields[${i}]`, `visible_fields[${i}] "${f}" is not a field of ${fields.slug}${suggestion ? `; did you mean "${suggestion}"?` : ''}`, {
        rule: 'unknown_field', allowed, ...(suggestion ? { suggestion } : {}),
      });
    });
    out.visible_fields = [...new Set(input.visible_fields)];
  }
  return out;
}

function viewView(view: SavedView): ViewView {
  const { workspace_id: _ws, ...rest } = view;
  return { view_id: view.id, ...rest };
}
