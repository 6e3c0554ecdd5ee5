// Communications: emails, messages, meetings, support tickets, integrations and webhook
// deliveries (one :Comm label, told apart by `kind`), and per-period call counters (:Usage).
// Community edition only; every statement is IF NOT EXISTS.

CREATE CONSTRAINT comm_id IF NOT EXISTS
FOR (n:Comm) REQUIRE n.id IS UNIQUE;

// email.list, messages.list, meetings.list, integrations.list: a workspace's items of a kind by time.
CREATE INDEX comm_workspace_kind IF NOT EXISTS
FOR (n:Comm) ON (n.workspace_id, n.kind, n.at);

// The outbox and webhook workers: work due in every workspace.
CREATE INDEX comm_due IF NOT EXISTS
FOR (n:Comm) ON (n.kind, n.next_attempt_at);

CREATE CONSTRAINT usage_key IF NOT EXISTS
FOR (n:Usage) REQUIRE (n.workspace_id, n.period, n.style) IS UNIQUE;
