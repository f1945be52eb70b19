// Raw-HTTP helpers for the servers' own smoke tests (Node and Chromium): no MCP client library, so the tests
// show what each server really puts on the wire.
import { EventSourceParserStream } from 'eventsource-parser/stream'

export type Json = Record<string, any>

export const MODERN = '2026-07-28'
export const LEGACY = '2025-11-25'
const ACCEPT = 'application/json, text/event-stream'

export function modernMeta(capabilities: Json = {}): Json {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'servers-test', version: '0.0.0' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  }
}

/** Rejects if `promise` has not settled within `ms`: a test must fail, never hang. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** The SSE events of a response body (comments and keep-alives dropped by the parser). */
export function sseEvents(response: Response) {
  if (!response.body) throw new Error('response has no body')
  const reader = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader()
  return {
    /** The next event, or undefined when the stream ended. */
    async next(ms = 5000) {
      const { done, value } = await within(reader.read(), ms, 'waiting for an SSE event')
      return done ? undefined : value
    },
    /** The next event whose data is a JSON-RPC message (skips priming events with empty data). */
    async nextMessage(ms = 5000): Promise<Json | undefined> {
      for (;;) {
        const event = await this.next(ms)
        if (event === undefined) return undefined
        if (event.data.trim() !== '') return JSON.parse(event.data)
      }
    },
    cancel: () => reader.cancel().catch(() => {}),
  }
}

/** The JSON-RPC messages of a JSON or SSE answer, up to and including the one answering `id`. */
export async function messagesOf(response: Response, id: unknown): Promise<Json[]> {
  const type = response.headers.get('content-type') ?? ''
  if (type.startsWith('application/json')) return [await response.json()]
  if (!type.startsWith('text/event-stream')) throw new Error(`unexpected content-type "${type}" (${response.status})`)
  const events = sseEvents(response)
  const messages: Json[] = []
  for (;;) {
    const message = await events.nextMessage()
    if (message === undefined) return messages
    messages.push(message)
    if ('id' in message && message.id === id && !('method' in message)) {
      await events.cancel()
      return messages
    }
  }
}

let nextId = 1

/** A 2026-07-28 request with the headers a modern server requires. */
export async function modernRequest(
  url: string,
  method: string,
  params: Json = {},
  options: { capabilities?: Json; headers?: Record<string, string>; meta?: Json } = {},
) {
  const id = nextId++
  const name = params.name ?? params.uri
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: ACCEPT,
      'MCP-Protocol-Version': MODERN,
      'Mcp-Method': method,
      ...(typeof name === 'string' && { 'Mcp-Name': name }),
      ...options.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: { ...modernMeta(options.capabilities), ...options.meta } },
    }),
    signal: AbortSignal.timeout(10_000),
  })
  return { id, response }
}

/** Sends a modern request and resolves with its final JSON-RPC message and what came before it. */
export async function modernCall(url: string, method: string, params: Json = {}, options = {}) {
  const { id, response } = await modernRequest(url, method, params, options)
  const messages = await messagesOf(response, id)
  const final = messages.at(-1) ?? {}
  return { status: response.status, final, notifications: messages.slice(0, -1) }
}

/** A legacy session: initialize, notifications/initialized; then `call()` sends with the session headers. */
export async function legacySession(url: string, capabilities: Json = {}) {
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: ACCEPT },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities, clientInfo: { name: 'servers-test', version: '0.0.0' } },
    }),
    signal: AbortSignal.timeout(10_000),
  })
  const sessionId = init.headers.get('mcp-session-id')
  if (!sessionId) throw new Error(`initialize gave no Mcp-Session-Id (HTTP ${init.status})`)
  const [initResult] = (await messagesOf(init, 0)).slice(-1)
  const headers = (): Record<string, string> => ({
    'Content-Type': 'application/json',
    Accept: ACCEPT,
    'Mcp-Session-Id': sessionId,
    'MCP-Protocol-Version': LEGACY,
  })
  const initialized = await fetch(url, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  })
  if (initialized.status !== 202) throw new Error(`notifications/initialized got HTTP ${initialized.status}`)

  return {
    sessionId,
    initResult: initResult as Json,
    headers,
    async call(method: string, params: Json = {}) {
      const id = nextId++
      const response = await fetch(url, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        signal: AbortSignal.timeout(10_000),
      })
      if (!response.ok) return { status: response.status, final: (await response.json()) as Json, notifications: [] }
      const messages = await messagesOf(response, id)
      return { status: response.status, final: messages.at(-1) ?? {}, notifications: messages.slice(0, -1) }
    },
    /** The session's standalone GET stream. */
    async openStream() {
      const response = await fetch(url, { headers: { ...headers(), Accept: 'text/event-stream' } })
      if (response.status !== 200) throw new Error(`GET stream got HTTP ${response.status}`)
      return sseEvents(response)
    },
  }
}

/** Opens an HTTP+SSE (2024-11-05) session and resolves once the endpoint event arrived. */
export async function sseSession(url: string) {
  const controller = new AbortController()
  const response = await fetch(url, { headers: { Accept: 'text/event-stream' }, signal: controller.signal })
  const events = sseEvents(response)
  const first = await events.next()
  if (first?.event !== 'endpoint') throw new Error(`first event was ${JSON.stringify(first)}, not endpoint`)
  const endpoint = new URL(first.data, url).href
  return {
    response,
    endpoint,
    events,
    /** POSTs a message; the answer arrives on `events`. */
    post: (message: Json) =>
      fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      }),
    close: () => controller.abort(),
  }
}

export async function control(base: string, action: string, init: RequestInit = {}) {
  const response = await fetch(`${base}/control/${action}`, { method: 'POST', ...init })
  return { status: response.status, body: (await response.json()) as Json }
}

export async function stats(base: string) {
  return (await (await fetch(`${base}/control/stats`)).json()) as {
    requests: number
    preflights: number
    byMethod: Record<string, number>
  }
}
