// Counts HTTP requests to a server's MCP endpoint(s), so tests can assert how many round trips a client made.
// `byMethod` is keyed by JSON-RPC method for POSTs (a JSON-RPC response a client POSTs counts as "response",
// a body that is not JSON-RPC as "invalid") and by HTTP verb for GET and DELETE. Preflights are counted apart:
// they are the browser's doing, not the client's.
export function createStats() {
  let requests = 0
  let preflights = 0
  let byMethod = {}
  const bump = (key) => (byMethod[key] = (byMethod[key] ?? 0) + 1)

  return {
    preflight: () => void preflights++,
    /** Records one HTTP request; `body` is the parsed JSON of a POST (a message or a batch array). */
    record(httpMethod, body) {
      requests++
      if (httpMethod !== 'POST') return void bump(httpMethod)
      const messages = Array.isArray(body) ? body : [body]
      for (const message of messages) {
        if (message && typeof message.method === 'string') bump(message.method)
        else if (message && ('result' in message || 'error' in message)) bump('response')
        else bump('invalid')
      }
    },
    snapshot: () => ({ requests, preflights, byMethod: { ...byMethod } }),
    reset() {
      requests = 0
      preflights = 0
      byMethod = {}
    },
  }
}
