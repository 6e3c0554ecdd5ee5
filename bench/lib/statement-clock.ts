/**
 * Wall time per SQL text on every SQLite connection of this process, for finding the statement a
 * bulk path spends its time on (`load-timing.ts --statements`). It wraps the connection's prepared
 * statements and its array-row reads, so it adds a timer read or two to every statement: compare
 * statements with each other, not with runs made without it.
 */
import type Database from 'better-sqlite3';
import { Connection, type SqlParam } from '../../src/store/sqlite/connection.ts';

export interface StatementTime {
  sql: string;
  calls: number;
  ms: number;
}

const TIMED = new Set<PropertyKey>(['run', 'get', 'all', 'iterate']);

/** Starts timing; the function returned reads the totals so far, the costliest first. */
export function clockStatements(): () => StatementTime[] {
  const totals = new Map<string, StatementTime>();
  const add = (sql: string, ms: number): void => {
    const key = sql.replace(/\s+/g, ' ').trim();
    const entry = totals.get(key);
    if (entry) {
      entry.calls++;
      entry.ms += ms;
    } else totals.set(key, { sql: key, calls: 1, ms });
  };
  const timed = <T>(sql: string, call: () => T): T => {
    const started = performance.now();
    try {
      return call();
    } finally {
      add(sql, performance.now() - started);
    }
  };

  const wrappers = new WeakMap<Database.Statement<SqlParam[]>, Database.Statement<SqlParam[]>>();
  const stmt = Connection.prototype.stmt;
  Connection.prototype.stmt = function (this: Connection, sql: string) {
    const statement = stmt.call(this, sql);
    let wrapper = wrappers.get(statement);
    if (!wrapper) {
      wrapper = new Proxy(statement, {
        get(target, name) {
          const value = Reflect.get(target, name, target) as unknown;
          if (typeof value !== 'function') return value;
          if (!TIMED.has(name)) return value.bind(target);
          return (...params: SqlParam[]) => timed(sql, () => (value as (...p: SqlParam[]) => unknown).apply(target, params));
        },
      });
      wrappers.set(statement, wrapper);
    }
    return wrapper;
  };
  const rows = Connection.prototype.rows;
  Connection.prototype.rows = function <T extends unknown[]>(this: Connection, sql: string, ...params: SqlParam[]): T[] {
    return timed(sql, () => rows.call(this, sql, ...params) as T[]);
  };
  return () => [...totals.values()].sort((a, b) => b.ms - a.ms);
}
