// crm export (dumpWorkspace): a workspace's rows are read in pages of one kind, in id order after
// an id cursor. These indexes let a page start at the cursor and come out in id order for the
// kinds that can be large; relations are paged from their start records, through record_workspace.
// Events have event_workspace (004); users, keys, object types, lists and views are few.

CREATE INDEX record_workspace IF NOT EXISTS
FOR (n:Record) ON (n.workspace_id, n.id);

CREATE INDEX list_entry_workspace IF NOT EXISTS
FOR (n:ListEntry) ON (n.workspace_id, n.id);

CREATE INDEX note_workspace_id IF NOT EXISTS
FOR (n:Note) ON (n.workspace_id, n.id);

CREATE INDEX task_workspace_id IF NOT EXISTS
FOR (n:Task) ON (n.workspace_id, n.id);
