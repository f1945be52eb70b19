import { ProtocolError } from '../../errors/protocol-error'
import { parseMessages } from '../json-rpc'
import { link } from '../link'
import { noop, route, type OnMessage, type Pending } from '../pending'
import { typedFailure } from '../failures'
import type { JsonRpcRequest, ServerStream } from '../types'
import { expectStream, SSE_ACCEPT } from './expect-stream'
import { progressKey, progressOwner } from './progress'
import type { StreamHost } from './types'

/**
 * A legacy-era session's GET streams, and the requests a 202 parked until their answer arrives on one of them.
 * One per StreamableHttpTransport, made when the first stream is asked for.
 */
export class SessionStreams {
  readonly #host: StreamHost
  /** GET streams open now: a request accepted with 202 can be answered only while one is. */
  #live = 0
  readonly #parked = new Set<Pending>()
  /** Parked requests by progress token: their progress comes on a GET stream but is theirs alone. */
  readonly #progress = new Map<string, Pending>()

  constructor(host: StreamHost) {
    this.#host = host
  }

  /** Parks a request the server accepted with 202, to be answered on a GET stream; false when none is open. */
  park(entry: Pending, message: JsonRpcRequest): boolean {
    if (!this.#live) return false
    this.#parked.add(entry)
    const token = progressKey(message)
    if (token && entry.onMessage) this.#progress.set(token, entry)
    return true
  }

  /** Forgets a request that settled, however. */
  forget(entry: Pending): void {
    this.#parked.delete(entry)
    for (const [key, owner] of this.#progress) if (owner === entry) this.#progress.delete(key)
  }

  /**
   * Opens a GET stream within `lifetime` (the transport's, as it was when asked). `caller` bounds the opening
   * only: once open, the stream lives until closed. Undefined when the server offers none (405).
   */
  async open(onMessage: OnMessage, lifetime: AbortSignal, caller?: AbortSignal): Promise<ServerStream | undefined> {
    const host = this.#host
    const { signal, done, abort } = link(lifetime)
    const onCaller = () => abort(caller!.reason)
    if (caller?.aborted) onCaller()
    caller?.addEventListener('abort', onCaller, { once: true })
    let response: Response
    try {
      response = await host.fetch('GET', { ...SSE_ACCEPT, ...host.headers() }, signal)
      if (response.status === 405) {
        await response.body?.cancel()
        done()
        return undefined
      }
      await expectStream(response, host.max)
    } catch (error) {
      const failure = typedFailure(host.url, error, signal)
      done()
      throw failure
    } finally {
      caller?.removeEventListener('abort', onCaller)
    }
    this.#live++
    const receivers = [{ onMessage }]
    const onData = (data: string) => {
      let messages
      try {
        messages = parseMessages(data)
      } catch (error) {
        // A request's stream fails on garbage; the session stream carries many messages, so it drops one.
        host.debug('dropped a malformed message on the session stream', error)
        return
      }
      for (const message of messages) {
        const owner = progressOwner(message, this.#progress)
        route(message, host.pending, owner ? [owner] : receivers, host.debug)
      }
    }
    const closed = host
      .follow(response, signal, true, onData, () => false)
      .then(noop, (error: unknown) => {
        // A stream we closed ourselves ended as asked; anything else is the error it died of.
        if (!signal.aborted) throw typedFailure(host.url, error, signal)
      })
      .finally(() => {
        this.#live--
        done()
        // Requests accepted with 202 wait for an answer on a GET stream: with none left, none will come.
        if (!this.#live) {
          for (const entry of this.#parked) entry.settle(new ProtocolError('stream-ended', 'The GET stream ended before the answer to a request accepted with 202'))
        }
      })
    // Whoever holds the stream sees a rejection; nobody holding it must not mean an unhandled one.
    closed.catch(noop)
    return { closed, close: done }
  }
}
