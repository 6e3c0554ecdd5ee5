// Uniqueness constraints of the Neo4j store. Community edition: single and composite property
// uniqueness only (no existence or key constraints). A node lacking one of the properties is not
// subject to the rule, which is how "unique among live ones" is expressed: the property is
// removed when the node is soft-deleted. Applied idempotently at start-up and by `crm migrate`.

CREATE CONSTRAINT workspace_id IF NOT EXISTS
FOR (n:Workspace) REQUIRE n.id IS UNIQUE;

CREATE CONSTRAINT user_id IF NOT EXISTS
FOR (n:User) REQUIRE n.id IS UNIQUE;

// Emails are unique per workspace, compared lower-cased (email_key).
CREATE CONSTRAINT user_email IF NOT EXISTS
FOR (n:User) REQUIRE (n.workspace_id, n.email_key) IS UNIQUE;

CREATE CONSTRAINT api_key_id IF NOT EXISTS
FOR (n:ApiKey) REQUIRE n.id IS UNIQUE;

CREATE CONSTRAINT api_key_hash IF NOT EXISTS
FOR (n:ApiKey) REQUIRE n.hash IS UNIQUE;

CREATE CONSTRAINT object_type_id IF NOT EXISTS
FOR (n:ObjectType) REQUIRE n.id IS UNIQUE;

// live_slug is set only while the object type is not deleted.
CREATE CONSTRAINT object_type_live_slug IF NOT EXISTS
FOR (n:ObjectType) REQUIRE (n.workspace_id, n.live_slug) IS UNIQUE;

CREATE CONSTRAINT field_id IF NOT EXISTS
FOR (n:Field) REQUIRE n.id IS UNIQUE;

CREATE CONSTRAINT field_slug IF NOT EXISTS
FOR (n:Field) REQUIRE (n.object_type_id, n.slug) IS UNIQUE;

CREATE CONSTRAINT record_id IF NOT EXISTS
FOR (n:Record) REQUIRE n.id IS UNIQUE;

// A live record's claim on a unique field value, per object type (by id, so a type that reuses a
// deleted type's slug starts with no claims). Released (deleted) with the record's soft delete.
CREATE CONSTRAINT unique_claim_value IF NOT EXISTS
FOR (n:UniqueClaim) REQUIRE (n.object_type_id, n.field, n.value) IS UNIQUE;
