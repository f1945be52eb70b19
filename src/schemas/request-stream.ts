// What a server sends on a request's own stream for that request: progress and log messages, checked one kind at a
// time for `onProgress` and `onLog` (notifications.ts joins them into the union of every server notification).
import * as z from 'zod/mini'
import { id, note, optStr } from './base'

export const LoggingLevelSchema = z.literal(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'])

export const LoggingMessageNotificationSchema = note('notifications/message', { level: LoggingLevelSchema, logger: optStr, data: z.unknown() })

export const ProgressNotificationSchema = note('notifications/progress', { progressToken: id, progress: z.number(), total: z.optional(z.number()), message: optStr })

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const isOptional = (value: unknown, type: string): boolean => value === undefined || (typeof value === type && (type !== 'number' || Number.isFinite(value)))

/**
 * A narrower yes than ProgressNotificationSchema's, for a progress notification as servers send it: read field by
 * field, without walking the schema. A stream may carry a hundred thousand of them, and the walk was a tenth of
 * the client's time per event. It never says yes where the schema says no (request-stream.test.ts holds it to
 * that); whatever it turns down goes to the schema, which gives the verdict and the reason.
 */
export function isPlainProgress(message: { method: string; params?: unknown; jsonrpc?: unknown }): boolean {
  const p = message.params
  if (message.method !== 'notifications/progress' || (message.jsonrpc !== '2.0' && message.jsonrpc !== undefined) || !isObject(p)) return false
  const token = p.progressToken
  return (
    (typeof token === 'string' || Number.isInteger(token)) &&
    typeof p.progress === 'number' &&
    Number.isFinite(p.progress) &&
    isOptional(p.total, 'number') &&
    isOptional(p.message, 'string') &&
    (p._meta === undefined || isObject(p._meta))
  )
}
