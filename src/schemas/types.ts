// TypeScript types of MCP messages, inferred from the schemas (one source of truth). Types only.
import type * as z from 'zod/mini'
import type * as base from './base'
import type * as content from './content'
import type * as entities from './entities'
import type * as notifications from './notifications'
import type * as requests from './requests'
import type * as results from './results'
import type * as tasks from './tasks'
import type * as taskResults from './task-results'

export type Role = z.infer<typeof base.RoleSchema>
export type Icon = z.infer<typeof base.IconSchema>
export type Annotations = z.infer<typeof base.AnnotationsSchema>
export type Implementation = z.infer<typeof base.ImplementationSchema>

export type TextContent = z.infer<typeof content.TextContentSchema>
export type ImageContent = z.infer<typeof content.ImageContentSchema>
export type AudioContent = z.infer<typeof content.AudioContentSchema>
export type ResourceLink = z.infer<typeof content.ResourceLinkSchema>
export type EmbeddedResource = z.infer<typeof content.EmbeddedResourceSchema>
/**
 * A content block of a known kind. A block of a kind added after this library still reaches the app, as
 * the server sent it: a `switch (block.type)` needs a default branch.
 */
export type ContentBlock = z.infer<typeof content.ContentBlockSchema>
/** What a block of a kind this library does not know looks like (only its `type` is checked). */
export type UnknownContentBlock = { type: string; [key: string]: unknown }
export type TextResourceContents = z.infer<typeof content.TextResourceContentsSchema>
export type BlobResourceContents = z.infer<typeof content.BlobResourceContentsSchema>
export type ResourceContents = z.infer<typeof content.ResourceContentsSchema>
export type ToolUseContent = z.infer<typeof requests.ToolUseContentSchema>
export type ToolResultContent = z.infer<typeof requests.ToolResultContentSchema>

export type Tool = z.infer<typeof entities.ToolSchema>
export type ToolAnnotations = z.infer<typeof entities.ToolAnnotationsSchema>
export type Prompt = z.infer<typeof entities.PromptSchema>
export type PromptArgument = z.infer<typeof entities.PromptArgumentSchema>
export type PromptMessage = z.infer<typeof entities.PromptMessageSchema>
export type Resource = z.infer<typeof entities.ResourceSchema>
export type ResourceTemplate = z.infer<typeof entities.ResourceTemplateSchema>
export type ServerCapabilities = z.infer<typeof entities.ServerCapabilitiesSchema>
export type ClientCapabilities = z.infer<typeof entities.ClientCapabilitiesSchema>

export type EmptyResult = z.infer<typeof results.EmptyResultSchema>
export type InitializeResult = z.infer<typeof results.InitializeResultSchema>
export type DiscoverResult = z.infer<typeof results.DiscoverResultSchema>
export type ListToolsResult = z.infer<typeof results.ListToolsResultSchema>
export type ListPromptsResult = z.infer<typeof results.ListPromptsResultSchema>
export type ListResourcesResult = z.infer<typeof results.ListResourcesResultSchema>
export type ListResourceTemplatesResult = z.infer<typeof results.ListResourceTemplatesResultSchema>
export type CallToolResult = z.infer<typeof results.CallToolResultSchema>
export type GetPromptResult = z.infer<typeof results.GetPromptResultSchema>
export type ReadResourceResult = z.infer<typeof results.ReadResourceResultSchema>
export type CompleteResult = z.infer<typeof results.CompleteResultSchema>
export type InputRequiredResult = z.infer<typeof requests.InputRequiredResultSchema>

export type ElicitFormParams = z.infer<typeof requests.ElicitFormParamsSchema>
export type ElicitUrlParams = z.infer<typeof requests.ElicitUrlParamsSchema>
export type CreateMessageParams = z.infer<typeof requests.CreateMessageParamsSchema>
export type SamplingMessage = z.infer<typeof requests.SamplingMessageSchema>
export type ElicitRequest = z.infer<typeof requests.ElicitRequestSchema>
export type CreateMessageRequest = z.infer<typeof requests.CreateMessageRequestSchema>
export type ListRootsRequest = z.infer<typeof requests.ListRootsRequestSchema>
/** One entry of an `input_required` round: elicitation, sampling or roots. */
export type InputRequest = z.infer<typeof requests.InputRequestSchema>
export type InputRequests = z.infer<typeof requests.InputRequestsSchema>
/** A JSON-RPC request from a server on a handshake revision. */
export type ServerRequest = z.infer<typeof requests.ServerRequestSchema>

export type LoggingLevel = z.infer<typeof notifications.LoggingLevelSchema>
export type SubscriptionFilter = z.infer<typeof notifications.SubscriptionFilterSchema>
export type ProgressNotification = z.infer<typeof notifications.ProgressNotificationSchema>
export type LoggingMessageNotification = z.infer<typeof notifications.LoggingMessageNotificationSchema>
export type ResourceUpdatedNotification = z.infer<typeof notifications.ResourceUpdatedNotificationSchema>
export type SubscriptionsAcknowledgedNotification = z.infer<typeof notifications.SubscriptionsAcknowledgedNotificationSchema>
/**
 * A server notification of a known method. One of a method this library does not know still reaches
 * handlers as the server sent it (`UnknownNotification`).
 */
export type ServerNotification = z.infer<typeof notifications.ServerNotificationSchema>
export type UnknownNotification = z.infer<typeof notifications.UnknownNotificationSchema>

export type TaskStatus = z.infer<typeof tasks.TaskStatusSchema>
export type Task = z.infer<typeof tasks.TaskSchema>
export type CreateTaskResult = z.infer<typeof taskResults.CreateTaskResultSchema>
export type GetTaskResult = z.infer<typeof taskResults.GetTaskResultSchema>
export type ErrorObject = z.infer<typeof base.ErrorObjectSchema>
