// What nanomcp puts on the wire for one request: URL, headers and body of the fetch it makes, so the raw
// baseline sends exactly the same bytes (same headers as a modern request, same _meta) without a client.
export async function captureRequest(send) {
  const original = globalThis.fetch
  let seen
  globalThis.fetch = async (input, init) => {
    if (!seen) {
      const request = input instanceof Request ? input : undefined
      const headers = Object.fromEntries(new Headers(init?.headers ?? request?.headers).entries())
      const body = typeof init?.body === 'string' ? init.body : await request?.clone().text()
      // The fetch options beside the bytes: the replay may be asked to use the same (see replayer's `same`).
      seen = { url: String(request?.url ?? input), method: init?.method ?? request?.method, headers, body, redirect: init?.redirect, signal: !!init?.signal }
    }
    return original(input, init)
  }
  try {
    await send()
  } finally {
    globalThis.fetch = original
  }
  if (!seen?.body) throw new Error('the client made no fetch with a body; nothing to replay')
  return seen
}

/** Reads the JSON-RPC response of a POST whose answer is JSON or an SSE stream (the last `data:` line). */
export async function readRpcResponse(res) {
  const text = await res.text()
  if (!res.headers.get('content-type')?.includes('text/event-stream')) return JSON.parse(text)
  const data = text.split('\n').filter((line) => line.startsWith('data:'))
  return JSON.parse(data.at(-1).slice(5))
}

/**
 * A function that POSTs the captured request again (new id each time) and resolves with its result. With `same`,
 * also with the client's own fetch options: its redirect mode, and a fresh AbortController's signal when it gave one.
 */
export function replayer({ url, headers, body, redirect, signal }, { same = false } = {}) {
  const message = JSON.parse(body)
  let id = 1_000_000
  const options = () => (same ? { ...(redirect && { redirect }), ...(signal && { signal: new AbortController().signal }) } : {})
  return async () => {
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ ...message, id: ++id }), ...options() })
    const reply = await readRpcResponse(res)
    if (!reply.result) throw new Error(`raw request failed: HTTP ${res.status} ${JSON.stringify(reply.error ?? reply)}`)
    return reply.result
  }
}
