// What a server sends on a request's own stream for that request: progress and log messages, checked one kind at a
// time for `onProgress` and `onLog` (notifications.ts joins them into the union of every server notification).
import * as z from 'zod/mini'
import { id, note, optStr } from './base'

export const LoggingLevelSchema = z.literal(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'])

export const LoggingMessageNotificationSchema = note('notifications/message', { level: LoggingLevelSchema, logger: optStr, data: z.unknown() })

export const ProgressNotificationSchema = note('notifications/progress', { progressToken: id, progress: z.number(), total: z.optional(z.number()), message: optStr })
