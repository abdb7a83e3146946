// check.mjs checks an introspection result the way GraphQL clients use it.
//
//   node check.mjs query
//     prints the introspection query GraphiQL sends (graphql-js
//     getIntrospectionQuery with every option GraphiQL enables).
//   node check.mjs check [document.graphql] < result.json
//     reads an introspection result ({"data": {...}} or the data itself),
//     runs buildClientSchema, validateSchema and printSchema, prints the SDL,
//     and validates the optional document against the schema. Any failure
//     exits non-zero with the message on stderr.
//   node check.mjs sdl < schema.graphql
//     builds a schema from SDL (buildSchema) and prints it (printSchema),
//     to compare a document with what its introspection gives.
import { readFileSync } from 'node:fs';
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  parse,
  printSchema,
  validate,
  validateSchema,
} from 'graphql';

const options = {
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
};

function fail(message) {
  process.stderr.write(message + '\n');
  process.exit(1);
}

function check(documentPath) {
  let result;
  try {
    result = JSON.parse(readFileSync(0, 'utf8'));
  } catch (e) {
    fail('result is not JSON: ' + e.message);
  }
  if (result.errors && result.errors.length > 0) {
    fail('result has errors: ' + JSON.stringify(result.errors));
  }
  const data = result.data ?? result;
  let schema;
  try {
    schema = buildClientSchema(data);
  } catch (e) {
    fail('buildClientSchema: ' + e.message);
  }
  const schemaErrors = validateSchema(schema);
  if (schemaErrors.length > 0) {
    fail('validateSchema: ' + schemaErrors.map((e) => e.message).join('\n'));
  }
  process.stdout.write(printSchema(schema) + '\n');
  if (documentPath) {
    const errors = validate(schema, parse(readFileSync(documentPath, 'utf8')));
    if (errors.length > 0) {
      fail('validate ' + documentPath + ': ' + errors.map((e) => e.message).join('\n'));
    }
  }
}

switch (process.argv[2]) {
  case 'query':
    process.stdout.write(getIntrospectionQuery(options));
    break;
  case 'check':
    check(process.argv[3]);
    break;
  case 'sdl':
    try {
      process.stdout.write(printSchema(buildSchema(readFileSync(0, 'utf8'))) + '\n');
    } catch (e) {
      fail('buildSchema: ' + e.message);
    }
    break;
  default:
    fail('usage: node check.mjs query | check [document.graphql] < result.json | sdl < schema.graphql');
}
