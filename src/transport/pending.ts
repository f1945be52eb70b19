import { AbortError } from '../errors/abort-error'
import { ProtocolError } from '../errors/protocol-error'
import { idKey, isResponse } from './json-rpc'
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from './types'

export const noop = () => undefined

export type OnMessage = (message: JsonRpcRequest | JsonRpcNotification) => void

/** A request waiting for its response; whatever else comes for it goes to `onMessage`. */
export interface Pending {
  onMessage?: OnMessage | undefined
  settle(error: unknown, response?: JsonRpcResponse): void
  /** Set once this request's own response body has been read to the end: nothing is left to close. */
  drained?: boolean
}

/**
 * Keeps a request under its id until its response settles it, `send` fails, or it is aborted (AbortError).
 * `start` runs only for an id not already in flight, with the `abort` that ends the request early: whoever stops
 * it (a caller's signal, the transport closing) calls that, rather than every request adding one more listener to
 * its signal. The `done` it returns runs once, as the request settles; a `signal` it returns already aborted ends
 * the request at once.
 */
export function track(
  pending: Map<string, Pending>,
  id: JsonRpcRequest['id'],
  onMessage: OnMessage | undefined,
  start: (abort: (reason: unknown) => void) => { signal?: AbortSignal | undefined; done?: (entry: Pending) => void },
  send: (entry: Pending) => Promise<unknown>,
): Promise<JsonRpcResponse> {
  const key = idKey(id)
  if (pending.has(key)) return Promise.reject(new ProtocolError('duplicate-id', `Request id ${key} is already in flight`))
  return new Promise((resolve, reject) => {
    let done: ((entry: Pending) => void) | undefined
    const entry: Pending = {
      onMessage,
      settle: (error, response) => {
        if (pending.get(key) !== entry) return
        pending.delete(key)
        done?.(entry)
        if (error) reject(error)
        else resolve(response!)
      },
    }
    pending.set(key, entry)
    const started = start((reason) => entry.settle(new AbortError(reason)))
    const { signal } = started
    done = started.done
    if (signal?.aborted) return entry.settle(new AbortError(signal.reason))
    send(entry).catch((error: unknown) => entry.settle(error))
  })
}

/** `start` for track() when the caller's own signal is the request's: the one listener is on it. */
export function onSignal(signal: AbortSignal | undefined, done?: (entry: Pending) => void): Parameters<typeof track>[3] {
  return (abort) => {
    const onAbort = () => abort(signal!.reason)
    signal?.addEventListener('abort', onAbort, { once: true })
    return {
      signal,
      done: (entry) => {
        signal?.removeEventListener('abort', onAbort)
        done?.(entry)
      },
    }
  }
}

/** Where a transport's diagnostics go (the `debug` option); the library never writes to the console. */
export type Debug = (message: string, detail?: unknown) => void

/**
 * A response settles its pending request; anything else goes to every receiver with a handler. With `own`
 * (a 2026-07-28 POST's response), only the request that POST carried may be settled: an answer bearing
 * another in-flight id is dropped, since a stateless server cannot know about requests on other streams.
 */
export function route(
  message: JsonRpcMessage,
  pending: Map<string, Pending>,
  receivers: Iterable<{ onMessage?: OnMessage | undefined }>,
  debug: Debug = noop,
  own?: Pending,
): void {
  if (isResponse(message)) {
    const entry = pending.get(idKey(message.id))
    if (entry && (!own || entry === own)) entry.settle(undefined, message)
    else debug(entry ? 'ignoring a response to another request on this request\'s stream' : 'ignoring a response to no pending request', message)
    return
  }
  let heard = false
  for (const { onMessage } of receivers) {
    if (!onMessage) continue
    heard = true
    try {
      onMessage(message)
    } catch (error) {
      // A throwing handler must not cost the request its stream, nor the other receivers the message.
      debug('a message handler threw', error)
    }
  }
  if (!heard) debug(`no handler for ${message.method}`, message)
}
