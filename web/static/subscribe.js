// subscribe.js: subscriptions from the board's playground and the runtime's
// GraphiQL page (docs/using/realtime.md), over graphql-transport-ws with the
// graphql-ws library's own client (vendored, web/vendor/graphql-ws@6.4.2,
// loaded by the page as the graphqlWs global). One WebSocket per
// subscription; results are an async iterable, which GraphiQL's fetcher may
// return.

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

/** errorsOf turns what graphql-ws's iterator throws into a result's
 * errors: the server's error message (a list of GraphQL errors), a close
 * event (the code and reason the server closed the connection with), or
 * anything else. */
function errorsOf(e) {
  if (Array.isArray(e)) return e;
  if (e && typeof e.code === "number") {
    return [{ message: `connection closed: ${e.code} ${e.reason || ""}`.trim(), extensions: { code: String(e.code) } }];
  }
  return [{ message: String((e && e.message) || e) }];
}

/** subscribe runs one operation over graphql-transport-ws at url, sending
 * init as the connection_init payload; it yields each result, and a result
 * with the errors when the server refuses the operation or closes the
 * connection early. Returning from the iteration completes the operation
 * and closes the connection. */
export function subscribe(url, init, request) {
  const client = window.graphqlWs.createClient({ url, connectionParams: init || {}, lazy: true, retryAttempts: 0, lazyCloseTimeout: 0 });
  const it = client.iterate(request);
  let done = false;
  const end = () => { done = true; client.dispose(); return { done: true, value: undefined }; };
  return {
    [Symbol.asyncIterator]() { return this; },
    async next() {
      if (done) return { done: true, value: undefined };
      try {
        const r = await it.next();
        return r.done ? end() : r;
      } catch (e) {
        done = true;
        client.dispose();
        return { done: false, value: { errors: errorsOf(e) } };
      }
    },
    async return() {
      if (!done) {
        try { await it.return(); } catch { /* the connection is gone already */ }
      }
      return end();
    },
  };
}
