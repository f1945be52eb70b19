// Log messages and their levels. Apart from notifications.ts: the core bundle checks a 2026-07-28 request's log
// messages with this schema alone, while every other notification reaches the app through code loaded on demand
// (the handshake era's, listen()'s), which carries the schemas of them all.
import * as z from 'zod/mini'
import { note, optStr } from './base'

export const LoggingLevelSchema = z.literal(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'])

export const LoggingMessageNotificationSchema = note('notifications/message', { level: LoggingLevelSchema, logger: optStr, data: z.unknown() })
