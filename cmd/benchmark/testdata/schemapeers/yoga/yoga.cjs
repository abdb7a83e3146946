// The schema group's peer (cmd/benchmark/schemapeers.go): graphql-yoga
// serving an SDL file with every value mocked by @graphql-tools/mock, on
// 127.0.0.1:PORT/graphql. Usage: node yoga.cjs schema.graphql PORT
const fs = require('node:fs');
const { createServer } = require('node:http');
const { createYoga } = require('graphql-yoga');
const { makeExecutableSchema } = require('@graphql-tools/schema');
const { addMocksToSchema } = require('@graphql-tools/mock');

const [sdlFile, port] = process.argv.slice(2);
const schema = addMocksToSchema({ schema: makeExecutableSchema({ typeDefs: fs.readFileSync(sdlFile, 'utf8') }) });
const yoga = createYoga({ schema, logging: false, graphiql: false, landingPage: false });
createServer(yoga).listen(Number(port), '127.0.0.1');
