// The everyday work surface (issue 6): lists and their entries, saved views, notes, tasks and the
// timeline. Community edition only; every statement is IF NOT EXISTS.

CREATE CONSTRAINT list_id IF NOT EXISTS
FOR (n:List) REQUIRE n.id IS UNIQUE;

CREATE CONSTRAINT list_entry_id IF NOT EXISTS
FOR (n:ListEntry) REQUIRE n.id IS UNIQUE;

// A record is in a list at most once: catches a concurrent writer the batch check could not see.
// Entries are removed for good, so the record can be added again.
CREATE CONSTRAINT list_entry_record IF NOT EXISTS
FOR (n:ListEntry) REQUIRE (n.list_id, n.record_id) IS UNIQUE;

CREATE CONSTRAINT view_id IF NOT EXISTS
FOR (n:View) REQUIRE n.id IS UNIQUE;

CREATE CONSTRAINT note_id IF NOT EXISTS
FOR (n:Note) REQUIRE n.id IS UNIQUE;

CREATE CONSTRAINT task_id IF NOT EXISTS
FOR (n:Task) REQUIRE n.id IS UNIQUE;

CREATE CONSTRAINT event_id IF NOT EXISTS
FOR (n:Event) REQUIRE n.id IS UNIQUE;

// lists.list, views.list: a workspace's lists and views.
CREATE INDEX list_workspace IF NOT EXISTS
FOR (n:List) ON (n.workspace_id);

CREATE INDEX view_workspace IF NOT EXISTS
FOR (n:View) ON (n.workspace_id);

// lists.entries and the duplicate check: the entries of one list, in the order added.
CREATE INDEX list_entry_list IF NOT EXISTS
FOR (n:ListEntry) ON (n.list_id, n.seq);

// notes.list: a workspace's notes, newest first.
CREATE INDEX note_workspace IF NOT EXISTS
FOR (n:Note) ON (n.workspace_id, n.created_at);

// tasks.list: a workspace's tasks by due date, and by assignee.
CREATE INDEX task_workspace IF NOT EXISTS
FOR (n:Task) ON (n.workspace_id, n.due_at);

CREATE INDEX task_assignee IF NOT EXISTS
FOR (n:Task) ON (n.workspace_id, n.assignee_id);

// timeline.list: a workspace's events newest first by id, after a `since` id.
CREATE INDEX event_workspace IF NOT EXISTS
FOR (n:Event) ON (n.workspace_id, n.id);
