// The order the host must keep towards an app: nothing before `ui/notifications/initialized`; then the latest
// partial input (if any), exactly one complete input, then exactly one result or cancellation. Context changes
// wait for `initialized` too. An app that initializes again (it reloaded) gets the input and result again,
// since the protocol has no replay of its own.
import type { CallToolResult } from '../schemas/types'
import type { HostContext } from './types'

type Send = (method: string, params: Record<string, unknown>) => void

const N = 'ui/notifications/'

export class MessageQueue {
  #send: Send
  #ready = false
  #partial: Record<string, unknown> | undefined
  #input: Record<string, unknown> | undefined
  #end: [method: string, params: Record<string, unknown>] | undefined
  #context: HostContext | undefined
  /** What was sent already this session, so a re-initialized app is caught up without duplicates. */
  #sent = { partial: false, input: false, end: false }

  constructor(send: Send) {
    this.#send = send
  }

  /** A partial input: dropped once the complete input is known; before `initialized` only the latest is kept. */
  partial(args: Record<string, unknown>): void {
    if (this.#input || this.#end) return
    this.#partial = args
    this.#sent.partial = false
    this.#flush()
  }

  /** The complete input: only the first one counts. */
  input(args: Record<string, unknown>): void {
    if (this.#input || this.#end) return
    this.#input = args
    this.#flush()
  }

  /** The result; implies the input is complete (the last partial, or `{}` when none came). */
  result(result: CallToolResult): void {
    this.#finish(`${N}tool-result`, result as Record<string, unknown>)
  }

  cancel(reason?: string): void {
    this.#finish(`${N}tool-cancelled`, reason === undefined ? {} : { reason })
  }

  /** Context changes after the `ui/initialize` answer: merged until they can be sent. */
  context(changes: HostContext): void {
    this.#context = { ...this.#context, ...changes }
    this.#flush()
  }

  /** `ui/notifications/initialized` came: send everything waiting, in order. */
  ready(): void {
    this.#ready = true
    this.#flush()
  }

  /** A new `ui/initialize` (the app reloaded): hold everything again, and re-send input and result afterwards. */
  reset(): void {
    this.#ready = false
    this.#context = undefined
    this.#sent = { partial: false, input: false, end: false }
  }

  #finish(method: string, params: Record<string, unknown>) {
    if (this.#end) return
    this.#input ??= this.#partial ?? {}
    this.#end = [method, params]
    this.#flush()
  }

  #flush() {
    if (!this.#ready) return
    if (this.#context) {
      const context = this.#context
      this.#context = undefined
      this.#send(`${N}host-context-changed`, context)
    }
    if (this.#input) {
      if (!this.#sent.input) {
        this.#sent.input = true
        this.#send(`${N}tool-input`, { arguments: this.#input })
      }
    } else if (this.#partial && !this.#sent.partial) {
      this.#sent.partial = true
      this.#send(`${N}tool-input-partial`, { arguments: this.#partial })
    }
    if (this.#end && this.#sent.input && !this.#sent.end) {
      this.#sent.end = true
      this.#send(...this.#end)
    }
  }
}
