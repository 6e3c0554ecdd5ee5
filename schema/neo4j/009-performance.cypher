// Index-backed order for records.list sorted by a system field (the default sort is created_at),
// the counterpart of SQLite's records_live_by_created / _updated / _id: the planner can read a
// type's records in index order and stop after SKIP + LIMIT instead of sorting all of them.
// Every statement is IF NOT EXISTS.

CREATE INDEX record_type_created IF NOT EXISTS
FOR (n:Record) ON (n.object_type_id, n.created_at);

CREATE INDEX record_type_updated IF NOT EXISTS
FOR (n:Record) ON (n.object_type_id, n.updated_at);

CREATE INDEX record_type_id IF NOT EXISTS
FOR (n:Record) ON (n.object_type_id, n.id);
