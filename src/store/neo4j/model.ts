/**
 * The graph vocabulary of the Neo4j adapter: every label, relationship type and property key a
 * statement may name. The Cypher lint test declares exactly these to the linter, so a misspelt
 * name in any statement fails the build instead of silently matching nothing.
 *
 * No label, relationship type or property key is ever built from data: field slugs and object
 * type slugs are stored as property *values* (`FieldValue.field`, `Record.object_type_slug`),
 * so Cypher text never depends on user input.
 */

export const LABELS = [
  'Workspace', 'User', 'ApiKey', 'ObjectType', 'Field', 'Record', 'FieldValue', 'UniqueClaim',
  'List', 'ListEntry', 'View', 'Note', 'Task', 'Event', 'Report',
  'Comm', 'Usage', 'IdempotencyKey',
] as const;

export const RELATIONSHIP_TYPES = [
  /** (:ObjectType)-[:HAS_FIELD]->(:Field) */
  'HAS_FIELD',
  /** (:Record)-[:HAS_VALUE]->(:FieldValue): one per scalar of a field value, for filters and sorting. */
  'HAS_VALUE',
  /** (:Record)-[:RELATES_TO {type, source, created_at}]->(:Record): field references and links. */
  'RELATES_TO',
  /** (:ListEntry)-[:ENTRY_OF]->(:Record): the record a list entry holds (entries also have HAS_VALUE). */
  'ENTRY_OF',
  /** (:Note|:Task|:Comm)-[:ABOUT {position}]->(:Record): the records a note is attached to, a task linked to. */
  'ABOUT',
  /** (:Event)-[:CONCERNS]->(:Record): the records a timeline event names. */
  'CONCERNS',
] as const;

export const PROPERTY_KEYS = [
  // shared
  'id', 'workspace_id', 'name', 'created_at', 'updated_at', 'deleted_at', 'description', 'seq',
  // Record, ListEntry, ObjectType and List: set and removed at once to take a node's write lock (LOCK_RECORD)
  'write_lock',
  // Workspace (`loading` only while an import is writing it, see load.ts)
  'plan', 'trial_ends_at', 'loading',
  // User
  'email', 'email_key', 'role',
  // ApiKey
  'user_id', 'scopes', 'hash', 'last_four', 'last_used_at', 'revoked_at',
  // ObjectType
  'slug', 'live_slug', 'icon', 'color', 'standard',
  // Field
  'object_type_id', 'type', 'required', 'unique', 'archived', 'config', 'position',
  // Record
  'object_type_slug', 'data', 'search_text', 'assignee_id', 'created_by',
  // FieldValue (`t` text, `lt` ASCII-lower-cased text, `n` number; booleans are 0/1 in `n`)
  'field', 't', 'lt', 'n',
  // UniqueClaim
  'record_id', 'value',
  // RELATES_TO (links also carry id, type, properties, created_by)
  'source', 'properties',
  // Record classification (contacts.classify)
  'category', 'strength', 'score', 'reasons', 'classified_at',
  // List (also object_type_slug, name, description, created_by, seq)
  'fields', 'entry_seq',
  // ListEntry (also list_id, record_id, data, created_by, seq)
  'list_id',
  // View
  'filters', 'sorts', 'visible_fields',
  // Note
  'kind', 'title', 'body', 'format',
  // Task (also title, body, assignee_id, created_by)
  'status', 'due_at', 'completed_at',
  // Event
  'at', 'actor_id', 'key_id', 'via', 'tool', 'action', 'resource_type', 'resource_id', 'record_ids', 'diff',
  // Comm (also kind, status, at, data, created_by) and Usage
  'tag', 'thread_id', 'attempts', 'next_attempt_at', 'period', 'style', 'count',
  // IdempotencyKey (also key_id, state)
  'key', 'fingerprint', 'state', 'outcome', 'claimed_at', 'expires_at',
  // keys of parameter maps read as `ref.to_id` (the others coincide with property keys above)
  'to_id', 'from_id', 'values', 'concerns',
] as const;

export type Label = (typeof LABELS)[number];
