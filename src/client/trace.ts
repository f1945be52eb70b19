import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, Transport } from '../transport/types'
import type { ClientOptions, Era } from './types'
import { checkAnswer } from './validate'
import { duration } from '../transport/duration'

export type OnMessage = (message: JsonRpcRequest | JsonRpcNotification) => void
type Message = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse

/**
 * The transport as the client uses it: every message in and out is shown to `onTrace`, request ids come from
 * one counter, and diagnostics go to `debug` (the library never writes to the console). `transport` is
 * replaced when a server turns out to be HTTP+SSE.
 */
export class Wire {
  #nextId = 0

  transport: Transport
  readonly options: ClientOptions
  readonly era: () => Era | undefined
  /** The client's `timeout` in ms (Infinity for none), checked once. */
  readonly timeout: number

  constructor(transport: Transport, options: ClientOptions, era: () => Era | undefined) {
    this.transport = transport
    this.options = options
    this.era = era
    this.timeout = duration('timeout', options.timeout, 60_000)
    // Checked here too, so a bad value fails where it was written rather than at the first listen().
    duration('listenAckTimeout', options.listenAckTimeout, 0)
  }

  /**
   * A signal for work nobody waits on (a goodbye after the caller gave up, a stream opened in the background):
   * bounded by the client's `timeout`, or by the transport's lifetime alone when there is none.
   */
  background(): AbortSignal | undefined {
    return Number.isFinite(this.timeout) ? AbortSignal.timeout(this.timeout) : undefined
  }

  nextId(): number {
    return ++this.#nextId
  }

  /** Bound, so it can be handed on as it is (to the checks that drop a malformed notification with a line). */
  readonly debug = (message: string, detail?: unknown): void => this.options.debug?.(message, detail)

  trace(direction: 'in' | 'out', message: Message, elapsed?: number): void {
    this.options.onTrace?.({ direction, era: this.era(), message: message as never, elapsed, at: Date.now() })
  }

  traced(onMessage: OnMessage): OnMessage {
    if (!this.options.onTrace) return onMessage
    return (message) => {
      this.trace('in', message)
      onMessage(message)
    }
  }

  /** Hands a request to the transport with what it sends and hears traced; its answer is the caller's to trace. */
  request(message: JsonRpcRequest, signal: AbortSignal, onMessage: OnMessage): Promise<JsonRpcResponse> {
    this.trace('out', message)
    return this.transport.request(message, { signal, onMessage: this.traced(onMessage) })
  }

  /** A request whose answer is traced too, and checked: a result object or a well-formed error object. */
  async call(message: JsonRpcRequest, signal: AbortSignal, onMessage: OnMessage): Promise<JsonRpcResponse> {
    const started = Date.now()
    this.trace('out', message)
    const response = await this.transport.request(message, { signal, onMessage: this.traced(onMessage) })
    this.trace('in', response, Date.now() - started)
    return checkAnswer(message.method, response)
  }

  /** Sends a notification, or an answer to a server request. */
  send(message: JsonRpcNotification | JsonRpcResponse, signal?: AbortSignal): Promise<void> {
    this.trace('out', message)
    return this.transport.send(message, signal && { signal })
  }
}
