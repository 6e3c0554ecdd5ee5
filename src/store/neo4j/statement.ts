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
