// Lookup indexes for the statements the store runs. Every index is created IF NOT EXISTS.

CREATE INDEX user_workspace IF NOT EXISTS
FOR (n:User) ON (n.workspace_id);

CREATE INDEX api_key_workspace IF NOT EXISTS
FOR (n:ApiKey) ON (n.workspace_id);

CREATE INDEX object_type_workspace IF NOT EXISTS
FOR (n:ObjectType) ON (n.workspace_id, n.slug);

// records.list and countRecords: the records of one object type.
CREATE INDEX record_object_type IF NOT EXISTS
FOR (n:Record) ON (n.object_type_id);

// Filters that the planner chooses to start from the values (equality, ranges).
CREATE INDEX field_value_text IF NOT EXISTS
FOR (n:FieldValue) ON (n.field, n.t);

CREATE INDEX field_value_number IF NOT EXISTS
FOR (n:FieldValue) ON (n.field, n.n);

CREATE INDEX unique_claim_record IF NOT EXISTS
FOR (n:UniqueClaim) ON (n.record_id);

CREATE INDEX relates_to_type IF NOT EXISTS
FOR ()-[r:RELATES_TO]-() ON (r.type);
