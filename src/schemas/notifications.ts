// Notifications a server sends, in every revision nanomcp speaks.
import * as z from 'zod/mini'
import { bare, id, note, optObject, optStr, str, tagged } from './base'
import { LoggingMessageNotificationSchema, ProgressNotificationSchema } from './request-stream'
import { TaskSchema } from './tasks'

export { LoggingLevelSchema, LoggingMessageNotificationSchema, ProgressNotificationSchema } from './request-stream'

const optList = z.optional(z.array(str))
const flag = z.optional(z.boolean())
export const SubscriptionFilterSchema = z.looseObject({
  toolsListChanged: flag,
  promptsListChanged: flag,
  resourcesListChanged: flag,
  resourceSubscriptions: optList,
  /** Tasks extension. */
  taskIds: optList,
})

/** Legacy: either side cancels; 2026-07-28 (stdio): the server tears down a listen. */
export const CancelledNotificationSchema = note('notifications/cancelled', { requestId: z.optional(id), reason: optStr })
export const ToolListChangedNotificationSchema = bare('notifications/tools/list_changed')
export const PromptListChangedNotificationSchema = bare('notifications/prompts/list_changed')
export const ResourceListChangedNotificationSchema = bare('notifications/resources/list_changed')
export const ResourceUpdatedNotificationSchema = note('notifications/resources/updated', { uri: str })
/** 2026-07-28: first message of a listen stream; `notifications` is what the server will honour. */
export const SubscriptionsAcknowledgedNotificationSchema = note('notifications/subscriptions/acknowledged', { notifications: SubscriptionFilterSchema })
/** 2025-11-25 only (URL elicitation). */
export const ElicitationCompleteNotificationSchema = note('notifications/elicitation/complete', { elicitationId: str })
/** 2025-11-25 only, optional and unreliable (spec). */
export const TaskStatusNotificationSchema = note('notifications/tasks/status', TaskSchema.def.shape)
/** Tasks extension (2026-07-28): a full task on a listen stream that asked for its id. */
export const TasksNotificationSchema = note('notifications/tasks', TaskSchema.def.shape)

const known = [
  ProgressNotificationSchema,
  LoggingMessageNotificationSchema,
  CancelledNotificationSchema,
  ToolListChangedNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  SubscriptionsAcknowledgedNotificationSchema,
  ElicitationCompleteNotificationSchema,
  TaskStatusNotificationSchema,
  TasksNotificationSchema,
] as const

/** Any notification a method this library does not know: kept as the server sent it. */
export const UnknownNotificationSchema = z.looseObject({ jsonrpc: z.optional(z.literal('2.0')), method: str, params: optObject })

/**
 * Any server notification, checked by its `method`. One of a method this library does not know passes
 * through unchanged (a server may add its own); the static type lists the known ones, so checking
 * `method` narrows `params`.
 */
export const ServerNotificationSchema = tagged(
  'method',
  known,
  known.map((n) => n.def.shape.method.def.values[0] as string),
)
