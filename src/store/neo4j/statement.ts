/**
 * A named, parameterised Cypher statement. Every fixed statement of the adapter is made with
 * `statement()` and so lands in one registry, which the Cypher lint test walks; statements built
 * at run time (filters, search) are linted through representative outputs of their builders.
 */
export interface Statement<P extends string = string> {
  readonly name: string;
  /** The parameters the text uses; `run` must be given exactly these. */
  readonly params: readonly P[];
  readonly cypher: string;
}

/** A statement built at run time: its text and its parameter values. */
export interface BuiltStatement {
  readonly cypher: string;
  readonly params: Record<string, unknown>;
}

const registry = new Map<string, Statement>();

/** Declares a statement and registers it; names are unique across the adapter. */
export function statement<const P extends readonly string[]>(name: string, params: P, cypher: string): Statement<P[number]> {
  if (registry.has(name)) throw new Error(`duplicate Cypher statement name ${name}`);
  const made: Statement<P[number]> = Object.freeze({ name, params: Object.freeze([...params]), cypher: cypher.trim() });
  registry.set(name, made);
  return made;
}

/** Every registered statement, in declaration order. */
export function registeredStatements(): Statement[] {
  return [...registry.values()];
}

/** Binds a fixed statement to its values, keeping the type check on parameter names. */
export function bind<P extends string>(stmt: Statement<P>, params: { [K in P]: unknown }): BuiltStatement {
  return { cypher: stmt.cypher, params };
}

/** A page of a match (ordered, SKIP/LIMIT) and the count of the same match. */
export interface PagedStatement<P extends string> {
  readonly page: Statement<P | 'offset' | 'limit'>;
  readonly count: Statement<P>;
}

/**
 * Declares `list<Name>` and `count<Name>` over one match (`MATCH … WHERE …` binding `variable`):
 * the page returns `returns` in `orderBy` order; SKIP and LIMIT go through toInteger() because
 * the driver sends JavaScript numbers as floats.
 */
export function pagedStatement<const P extends readonly string[]>(
  name: string, params: P, match: string, shape: { variable: string; returns: string; orderBy: string },
): PagedStatement<P[number]> {
  return {
    page: statement(`list${name}`, [...params, 'offset', 'limit'], `${match}
RETURN ${shape.returns}
ORDER BY ${shape.orderBy}
SKIP toInteger($offset) LIMIT toInteger($limit)`),
    count: statement(`count${name}`, params, `${match}\nRETURN count(${shape.variable}) AS total`),
  };
}

/** Binds a paged statement: the scope's values to both, the paging to the page. */
export function bindPage<P extends string>(
  paged: PagedStatement<P>, scope: { [K in P]: unknown }, paging: { offset: number; limit: number },
): { page: BuiltStatement; count: BuiltStatement } {
  return { page: { cypher: paged.page.cypher, params: { ...scope, ...paging } }, count: bind(paged.count, scope) };
}

/** A workspace-wide page, or, given `record_id`, the page of the items about that record. */
export function bindPageAbout<P extends string>(
  all: PagedStatement<P>, about: PagedStatement<P | 'record_id'>, scope: { [K in P]: unknown },
  query: { record_id?: string | undefined; offset: number; limit: number },
): { page: BuiltStatement; count: BuiltStatement } {
  const paging = { offset: query.offset, limit: query.limit };
  if (query.record_id === undefined) return bindPage(all, scope, paging);
  return bindPage(about, { ...scope, record_id: query.record_id } as { [K in P | 'record_id']: unknown }, paging);
}
