import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.ts';
import './types/object-type.ts';
import './types/record.ts';
import './types/list.ts';
import './types/view.ts';
import './types/note.ts';
import './types/task.ts';
import './types/timeline.ts';
import './types/report.ts';
import './types/analytics.ts';
import './types/comms.ts';
import './types/integrations.ts';
import './types/graph.ts';
import './types/settings.ts';

/** The application API over the store. Built once per process. */
export const schema: GraphQLSchema = builder.toSchema();

/** The SDL checked in at schema/schema.graphql. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
