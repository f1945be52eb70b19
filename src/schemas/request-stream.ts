// What a server sends on a request's own stream for that request: progress and log messages. Apart from
// notifications.ts because the core bundle checks these itself (for `onProgress` and `onLog`), while every other
// notification reaches the app through code loaded on demand (the handshake era's, listen()'s), which carries the
// schemas of them all.
import * as z from 'zod/mini'
import { id, note, optStr } from './base'

export const LoggingLevelSchema = z.literal(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'])

export const LoggingMessageNotificationSchema = note('notifications/message', { level: LoggingLevelSchema, logger: optStr, data: z.unknown() })

export const ProgressNotificationSchema = note('notifications/progress', { progressToken: id, progress: z.number(), total: z.optional(z.number()), message: optStr })
