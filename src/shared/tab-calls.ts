// The helpers a tab runs on the host: numbered calls, abortable, guarded against a host that died unnoticed, settled by its answers.
import type { Progress } from '../client/types'
import { AbortError } from '../errors/abort-error'
import { OPS, type HostMessage, type Op } from './protocol'
import { SharedError } from './shared-error'
import type { Connection } from './tab-connection'
import type { SharedRequestOptions } from './types'
import { decodeError } from './wire-error'
import { duration, MAX_DELAY_MS } from '../transport/duration'

const GUARD_MS = 10_000

interface PendingCall {
  resolve(value: never): void
  reject(error: unknown): void
  sent: boolean
  onProgress?: (progress: Progress) => void
  onLog?: SharedRequestOptions['onLog']
}

export interface Calls {
  call(op: Op, args: unknown[], options?: SharedRequestOptions): Promise<never>
  /** The call's message reached the host: from now on it may run on the server. */
  sent(id: number): void
  /** A host's result, progress or log for one of this tab's calls. */
  receive(message: Extract<HostMessage, { t: 'result' | 'progress' | 'log' }>): void
  /** The host went away: calls it received fail (they may have run), queued ones wait for the next host. */
  lost(): void
  /** Settles every call left with `error`. */
  rejectAll(error: unknown): void
}

/** `timeout` is the client's (the shared option): a call without its own is guarded past it. */
export function createCalls(connection: Connection, timeout: unknown): Calls {
  const pending = new Map<number, PendingCall>()
  let nextId = 0
  return {
    call(op, args, requestOptions = {}) {
      const { signal, timeout: callTimeout, logLevel, onProgress, onLog } = requestOptions
      if (connection.closed) return Promise.reject(new SharedError('closed', 'This shared client is closed'))
      if (signal?.aborted) return Promise.reject(new AbortError(signal.reason))
      const callId = ++nextId
      return new Promise<never>((resolve, reject) => {
        const onAbort = () => {
          const entry = pending.get(callId)
          if (!entry) return
          pending.delete(callId)
          if (entry.sent) connection.send({ t: 'abort', id: callId, reason: String(signal?.reason instanceof Error ? signal.reason.message : (signal?.reason ?? 'aborted')) })
          else connection.unqueue((m) => m.t === 'call' && m.id === callId)
          reject(new AbortError(signal?.reason))
        }
        // The shared client bounds every call by its timeout; this guard only catches a host that can no longer
        // answer and whose death went unnoticed (no Web Locks on this origin).
        const fallback = typeof timeout === 'number' || timeout === false ? duration('timeout', timeout, 60_000) : 60_000
        const own = duration('timeout', callTimeout, fallback)
        const limit = Number.isFinite(own) ? Math.min(own + GUARD_MS, MAX_DELAY_MS) : Infinity
        const guard = Number.isFinite(limit)
          ? setTimeout(() => {
              const entry = pending.get(callId)
              pending.delete(callId)
              // A call still queued for a host that never came must not go out later, after its caller gave up.
              if (entry && !entry.sent) connection.unqueue((m) => m.t === 'call' && m.id === callId)
              entry?.reject(new SharedError('host-lost', `${op}: the shared client did not answer within ${limit} ms`))
            }, limit)
          : undefined
        const settle = <T>(fn: (value: T) => void) => (value: T) => {
          clearTimeout(guard)
          signal?.removeEventListener('abort', onAbort)
          fn(value)
        }
        pending.set(callId, { resolve: settle(resolve), reject: settle(reject), sent: false, ...(onProgress ? { onProgress } : {}), ...(onLog ? { onLog } : {}) })
        const callOptions = { ...(callTimeout === undefined ? {} : { timeout: callTimeout }), ...(logLevel === undefined ? {} : { logLevel }), progress: !!onProgress, log: !!onLog }
        try {
          connection.send({ t: 'call', id: callId, op, args: args.slice(0, OPS[op]), options: callOptions })
        } catch (error) {
          pending.delete(callId)
          clearTimeout(guard)
          return reject(new SharedError('not-cloneable', `${op}: its arguments cannot be sent to the shared client (${(error as Error).name}: ${(error as Error).message})`, { cause: error }))
        }
        signal?.addEventListener('abort', onAbort, { once: true })
      })
    },
    sent(id) {
      const entry = pending.get(id)
      if (entry) entry.sent = true
    },
    receive(message) {
      if (message.t === 'progress') return pending.get(message.id)?.onProgress?.(message.value as Progress)
      if (message.t === 'log') return pending.get(message.id)?.onLog?.(message.value as never)
      const call = pending.get(message.id)
      if (!call) return
      pending.delete(message.id)
      return message.ok ? call.resolve(message.value as never) : call.reject(decodeError(message.error))
    },
    lost() {
      // Calls the old host received may have run on the server: failing them is honest, re-sending is not.
      for (const [callId, call] of pending)
        if (call.sent) {
          pending.delete(callId)
          call.reject(new SharedError('host-lost', 'The shared client went away while this call was in flight'))
        }
    },
    rejectAll(error) {
      for (const call of pending.values()) call.reject(error)
      pending.clear()
    },
  }
}
