// Saved reports. Community edition only; every statement is IF NOT EXISTS.

CREATE CONSTRAINT report_id IF NOT EXISTS
FOR (n:Report) REQUIRE n.id IS UNIQUE;

// reports.list: a workspace's reports.
CREATE INDEX report_workspace IF NOT EXISTS
FOR (n:Report) ON (n.workspace_id);
