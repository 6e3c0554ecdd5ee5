// The relationship graph: links are RELATES_TO edges with an id (graph.unlink finds them by it),
// and graph.query filters contacts by their persisted category. Community edition only; every
// statement is IF NOT EXISTS.

CREATE INDEX relates_to_id IF NOT EXISTS
FOR ()-[e:RELATES_TO]-() ON (e.id);

CREATE INDEX record_category IF NOT EXISTS
FOR (n:Record) ON (n.workspace_id, n.category);
