// subscribe.js: a small graphql-transport-ws client (the protocol of the
// graphql-ws library) for the playground's subscriptions
// (docs/using/realtime.md). One WebSocket per subscription; results are an
// async iterable, which GraphiQL's fetcher may return.

/** isSubscription reports whether the operation a request runs is a
 * subscription: the one named operationName, else the document's first. */
export function isSubscription(query, operationName) {
  const text = query.replace(/#[^\n]*/g, "").replace(/"""[\s\S]*?"""|"(?:[^"\\]|\\.)*"/g, '""');
  const ops = [...text.matchAll(/(^|[}\s])(query|mutation|subscription)\b\s*([_A-Za-z][_0-9A-Za-z]*)?|(^\s*\{)/g)];
  const op = operationName ? ops.find((m) => m[3] === operationName) : ops[0];
  return !!op && op[2] === "subscription";
}

/** wsURL turns a runtime URL (http or https, with its ?token=) into its WebSocket address. */
export const wsURL = (runtimeUrl) => runtimeUrl.replace(/^http/, "ws");

/** subscribe runs one operation over graphql-transport-ws at url, sending
 * init as the connection_init payload; it yields each result, and a result
 * with the close reason in errors when the server closes the connection
 * early. Returning from the iteration completes the operation. */
export function subscribe(url, init, request) {
  const queue = [];
  let wake = null;
  let done = false;
  const push = (v) => { queue.push(v); if (wake) { wake(); wake = null; } };
  const ws = new WebSocket(url, "graphql-transport-ws");
  ws.onopen = () => ws.send(JSON.stringify({ type: "connection_init", payload: init || {} }));
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.type === "connection_ack") ws.send(JSON.stringify({ type: "subscribe", id: "1", payload: request }));
    else if (m.type === "ping") ws.send(JSON.stringify({ type: "pong" }));
    else if (m.type === "next") push(m.payload);
    else if (m.type === "error") { push({ errors: m.payload }); done = true; push(null); }
    else if (m.type === "complete") { done = true; push(null); }
  };
  ws.onclose = (e) => {
    if (!done) push({ errors: [{ message: `connection closed: ${e.code} ${e.reason || ""}`.trim(), extensions: { code: String(e.code) } }] });
    done = true;
    push(null);
  };
  return {
    [Symbol.asyncIterator]() { return this; },
    async next() {
      while (!queue.length) await new Promise((r) => { wake = r; });
      const v = queue.shift();
      return v === null ? { done: true, value: undefined } : { done: false, value: v };
    },
    async return() {
      done = true;
      if (ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify({ type: "complete", id: "1" })); ws.close(1000); }
      return { done: true, value: undefined };
    },
  };
}
