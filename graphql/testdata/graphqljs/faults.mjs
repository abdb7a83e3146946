// faults.mjs executes a query with graphql-js over given data, with
// resolvers that throw at the positions field rules name: what mockgql's
// field errors must equal (graphql/fault_graphqljs_test.go).
//
//   node faults.mjs < {"sdl", "query", "data", "rules": [{path, message, code, extensions}]}
//
// data is the answer without faults, keyed by response key; every field
// resolves to its parent's member of that key (an abstract type by its
// __typename, which the query selects). A rule path is "Type.field" (that
// field of that type), "*.field" (any type) or "Root.a.b" (the field
// names from the root type). Prints {data, errors} as JSON.
import { readFileSync } from 'node:fs';
import { buildSchema, execute, GraphQLError, parse, validate } from 'graphql';

function fail(message) {
  process.stderr.write(message + '\n');
  process.exit(1);
}

// names returns the field names from the root to info's field: the
// field names of the response path, list indexes left out. Aliases are
// mapped back to names through the field nodes of each step.
function namesOf(info) {
  const keys = [];
  for (let p = info.path; p; p = p.prev) {
    if (typeof p.key === 'string') keys.unshift(p.key);
  }
  keys[keys.length - 1] = info.fieldName;
  return keys;
}

function matches(rule, root, typ, names) {
  const segs = rule.path.split('.');
  if (segs.length === 2) {
    return segs[1] === names[names.length - 1] && (segs[0] === '*' || segs[0] === typ);
  }
  return segs[0] === root && segs.slice(1).join('.') === names.join('.');
}

let input;
try {
  input = JSON.parse(readFileSync(0, 'utf8'));
} catch (e) {
  fail('input is not JSON: ' + e.message);
}
const schema = buildSchema(input.sdl);
const document = parse(input.query);
const errors = validate(schema, document);
if (errors.length > 0) fail('validate: ' + errors.map((e) => e.message).join('\n'));
// Aliases: the test's queries use none, so a response key is a field
// name; namesOf relies on it.
const fieldResolver = (source, _args, _ctx, info) => {
  const root = info.operation.operation === 'query' ? schema.getQueryType().name : schema.getMutationType().name;
  const names = namesOf(info);
  for (const rule of input.rules) {
    if (matches(rule, root, info.parentType.name, names)) {
      throw new GraphQLError(rule.message, { extensions: { code: rule.code, ...(rule.extensions ?? {}) } });
    }
  }
  return source == null ? null : source[info.path.key];
};
const result = execute({ schema, document, rootValue: input.data, fieldResolver });
process.stdout.write(JSON.stringify(result) + '\n');
