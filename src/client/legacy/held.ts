// Only an older server sends notifications on a request's own stream, so a request makes a Held only when the
// first one arrives.
import type { JsonRpcNotification } from '../../transport/types'
import type { ServerNotification } from '../types'
import type { Wire } from '../trace'
import { ServerNotificationSchema } from '../../schemas/notifications'
import { notification } from '../validate'

const MAX_HELD = 1000
const CHANGES = /^notifications\/(tools\/list_changed|prompts\/list_changed|resources\/list_changed|resources\/updated)$/

/**
 * Notifications an older server sent on one request's stream, held until that request settles. Bounded: an
 * identical change announcement says nothing new the second time, and past MAX_HELD the oldest go (with a
 * `debug` line), so a server that floods one stream costs a fixed amount of memory.
 */
export class Held {
  readonly #items: { notification: JsonRpcNotification; key: string | undefined }[] = []
  readonly #keys = new Set<string>()
  #dropped = 0

  constructor(readonly wire: Pick<Wire, 'debug'>) {}

  push(notification: JsonRpcNotification): void {
    const key = CHANGES.test(notification.method) ? notification.method + JSON.stringify(notification.params ?? {}) : undefined
    if (key !== undefined) {
      if (this.#keys.has(key)) return
      this.#keys.add(key)
    }
    if (this.#items.length >= MAX_HELD) {
      const oldest = this.#items.shift()!
      if (oldest.key !== undefined) this.#keys.delete(oldest.key)
      if (this.#dropped++ === 0) this.wire.debug(`over ${MAX_HELD} notifications on one request's stream: dropping the oldest`, oldest.notification)
    }
    this.#items.push({ notification, key })
  }

  /**
   * Everything held, in arrival order, checked now (a malformed one dropped with a debug line): only what survived
   * the bound is checked, so a flood costs no more than MAX_HELD checks. The holder is empty afterwards.
   */
  take(): ServerNotification[] {
    if (this.#dropped) this.wire.debug(`dropped ${this.#dropped} notification(s) held for one request`)
    this.#dropped = 0
    this.#keys.clear()
    return this.#items.splice(0).flatMap((item) => notification(item.notification, this.wire.debug, ServerNotificationSchema) ?? [])
  }
}
