import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, Transport } from '../transport/types'
import type { ClientOptions, Era } from './types'
import { checkAnswer } from './validate'

export type OnMessage = (message: JsonRpcRequest | JsonRpcNotification) => void
type Message = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse

/**
 * The transport as the client uses it: every message in and out is shown to `onTrace`, request ids come from
 * one counter, and diagnostics go to `debug` (the library never writes to the console). `transport` is
 * replaced when a server turns out to be HTTP+SSE.
 */
export class Wire {
  #nextId = 0

  declare transport: Transport
  declare readonly options: ClientOptions
  declare readonly era: () => Era | undefined

  constructor(transport: Transport, options: ClientOptions, era: () => Era | undefined) {
    this.transport = transport
    this.options = options
    this.era = era
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
    const response = await this.request(message, signal, onMessage)
    this.trace('in', response, Date.now() - started)
    return checkAnswer(message.method, response)
  }

  /** Sends a notification, or an answer to a server request. */
  send(message: JsonRpcNotification | JsonRpcResponse, signal?: AbortSignal): Promise<void> {
    this.trace('out', message)
    return this.transport.send(message, signal && { signal })
  }
}
