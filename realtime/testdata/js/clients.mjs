// Subscribes with a real client and prints each result as one JSON line,
// then "done" when the operation completes, or "error <detail>" / "closed
// <code>" when it fails. Usage:
//   node clients.mjs ws  <ws-url>   <token> <document> [results before exit]
//   node clients.mjs sse <http-url> <token> <document> [results before exit]
import { createClient as wsClient } from 'graphql-ws';
import { createClient as sseClient } from 'graphql-sse';
import WebSocket from 'ws';

const [kind, url, token, query, wantArg] = process.argv.slice(2);
const want = Number(wantArg || 0);
let got = 0;

function sink(dispose) {
  return {
    next: (r) => {
      console.log(JSON.stringify(r));
      got++;
      if (want && got >= want) { dispose(); console.log('done'); process.exit(0); }
    },
    error: (e) => {
      if (e && typeof e.code === 'number') console.log('closed ' + e.code + ' ' + (e.reason || ''));
      else console.log('error ' + JSON.stringify(e && e.message ? e.message : e));
      process.exit(0);
    },
    complete: () => { console.log('done'); process.exit(0); },
  };
}

if (kind === 'ws') {
  const client = wsClient({ url, webSocketImpl: WebSocket, connectionParams: { Authorization: token }, retryAttempts: 0, lazy: true });
  let dispose = () => {};
  dispose = client.subscribe({ query }, sink(() => dispose()));
} else {
  const client = sseClient({ url, headers: { Authorization: token }, retryAttempts: 0 });
  let dispose = () => {};
  dispose = client.subscribe({ query }, sink(() => dispose()));
}
