import { ProtocolError } from '../errors/protocol-error'
import type { EventSourceConstructor } from './event-source'
import { contentType, httpFetch } from './http'
import { readSseEvents } from './read-sse'
import { httpError } from './response-errors'
import { viaProxy } from './proxy-url'
import type { SseTransportOptions } from './types'

/**
 * What an HTTP+SSE session stream reports; `failed` comes once: with a typed error when one is known, an
 * untyped one from EventSource, or undefined when the server ended the stream cleanly.
 */
export interface SourceHandlers {
  endpoint(data: string): void
  message(data: string): void
  failed(error: unknown): void
}

/**
 * Opens the HTTP+SSE session stream. EventSource cannot send headers, so with `auth` or `headers` set (or
 * with no EventSource at all, as in Node 20) the stream is read with fetch, which also reports the HTTP
 * status and refuses redirects to another origin. Returns the function that closes it.
 */
export function openSource(url: string, options: SseTransportOptions, max: number, handlers: SourceHandlers): () => void {
  const EventSource = options.EventSource ?? (globalThis as { EventSource?: EventSourceConstructor }).EventSource
  if (EventSource && !options.auth && !options.headers) {
    const source = new EventSource(viaProxy(url, options.proxy), { withCredentials: options.requestInit?.credentials === 'include' })
    source.addEventListener('endpoint', (event) => handlers.endpoint((event as MessageEvent).data as string))
    source.addEventListener('message', (event) => handlers.message((event as MessageEvent).data as string))
    // EventSource says nothing of why it failed: the session decides what the failure means.
    source.addEventListener('error', (event) => handlers.failed(new Error((event as { message?: string }).message ?? 'the EventSource failed')))
    return () => source.close()
  }
  const controller = new AbortController()
  const read = async () => {
    const response = await httpFetch(url, { method: 'GET', headers: { Accept: 'text/event-stream' } }, options, controller.signal)
    if (!response.ok) throw await httpError(response, max)
    if (contentType(response) !== 'text/event-stream') {
      await response.body?.cancel()
      throw new ProtocolError('content-type', `Expected text/event-stream from GET ${url}, got "${contentType(response)}"`)
    }
    await readSseEvents(response.body, max, {}, (event) => {
      if (event.event === 'endpoint') handlers.endpoint(event.data)
      else if ((event.event === undefined || event.event === 'message') && event.data !== '') handlers.message(event.data)
    })
  }
  read().then(
    () => handlers.failed(undefined),
    (error: unknown) => void (controller.signal.aborted || handlers.failed(error)),
  )
  return () => controller.abort()
}
