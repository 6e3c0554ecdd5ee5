import type { FieldPatch, NewField, NewObjectType, ObjectTypePatch, Store } from '../../store/port.ts';
import type { Actor } from '../actor.ts';
import { CrmError, validationError } from '../errors.ts';
import { validateFieldPatch, validateNewField, validateNewObjectType, validateObjectTypePatch } from '../fields.ts';
import { nearest } from '../suggest.ts';
import type { ObjectType } from '../types.ts';

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

  /** The live object type, or a not_found that suggests the nearest slug. */
  async get(slug: string, param = 'slug'): Promise<ObjectType> {
    const cached = this.cache.get(slug);
    if (cached) return cached;
    const found = await this.store.getObjectType(this.ws, slug);
    if (found) {
      this.cache.set(slug, found);
      return found;
    }
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
    return this.remember(await this.store.createObjectType(this.ws, { ...valid, standard: false }));
  }

  async update(slug: string, patch: ObjectTypePatch): Promise<ObjectType> {
    await this.get(slug);
    return this.remember(await this.store.updateObjectType(this.ws, slug, validateObjectTypePatch(patch, '')));
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
    this.cache.delete(slug);
    return this.store.deleteObjectType(this.ws, slug);
  }

  async addField(slug: string, field: NewField): Promise<ObjectType> {
    const type = await this.get(slug);
    const slugs = (await this.list()).map((t) => t.slug);
    const valid = validateNewField(field, { param: 'field', objectSlugs: slugs });
    if (type.fields.some((f) => f.slug === valid.slug)) {
      throw new CrmError('conflict', `object type "${slug}" already has a field "${valid.slug}"`, { param: 'field.slug', field: valid.slug });
    }
    return this.remember(await this.store.addField(this.ws, slug, valid));
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
    const valid = validateFieldPatch(field, patch, 'field');
    return this.remember(await this.store.updateField(this.ws, slug, fieldSlug, valid));
  }

  private remember(type: ObjectType): ObjectType {
    this.cache.set(type.slug, type);
    return type;
  }
}
