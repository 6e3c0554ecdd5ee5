// records.search: one full-text index over Record.search_text. The adapter writes that text
// already tokenised (lower-cased words separated by single spaces, plus workspace and object type
// marker tokens), so the index uses the plain whitespace analyzer and the adapter, not Lucene,
// decides what a word is. Updates are applied at commit (not eventually consistent), so a record
// is searchable as soon as its write returns.

CREATE FULLTEXT INDEX record_search IF NOT EXISTS
FOR (n:Record) ON EACH [n.search_text]
OPTIONS { indexConfig: { `fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: false } };
