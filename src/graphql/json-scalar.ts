import { GraphQLScalarType, Kind, valueFromASTUntyped } from 'graphql';

/** Arbitrary JSON: record data and filters, whose shape depends on the object type's fields. */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value. Record data is an object keyed by field slug.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => (ast.kind === Kind.NULL ? null : valueFromASTUntyped(ast, variables)),
});
