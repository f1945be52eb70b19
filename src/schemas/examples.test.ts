// Every example message of the 2026-07-28 specification that the client reads parses, and parses to itself:
// nothing the server sent is dropped or rewritten.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type * as z from 'zod/mini'
import * as s from './index'

// Copied from the specification repository (schema/2026-07-28/examples), the folders the client reads.
const ROOT = join(import.meta.dirname, 'spec-examples')

type Pick = (message: Record<string, unknown>) => unknown
const whole: Pick = (m) => m
const result: Pick = (m) => m.result
/** Error examples come as bare error objects or as whole JSON-RPC error responses. */
const errorObject: Pick = (m) => m.error ?? m

/** Example folder → the schema that reads it and the part of the example it reads. */
const folders: Record<string, [z.ZodMiniType, Pick]> = {
  TextContent: [s.ContentBlockSchema, whole],
  ImageContent: [s.ContentBlockSchema, whole],
  AudioContent: [s.ContentBlockSchema, whole],
  ResourceLink: [s.ContentBlockSchema, whole],
  EmbeddedResource: [s.ContentBlockSchema, whole],
  TextResourceContents: [s.ResourceContentsSchema, whole],
  BlobResourceContents: [s.ResourceContentsSchema, whole],
  ToolUseContent: [s.ToolUseContentSchema, whole],
  ToolResultContent: [s.ToolResultContentSchema, whole],
  Tool: [s.ToolSchema, whole],
  Resource: [s.ResourceSchema, whole],
  ServerCapabilities: [s.ServerCapabilitiesSchema, whole],
  ClientCapabilities: [s.ClientCapabilitiesSchema, whole],
  SamplingMessage: [s.SamplingMessageSchema, whole],
  CallToolResult: [s.CallToolResultSchema, whole],
  CallToolResultResponse: [s.CallToolResultSchema, result],
  CompleteResult: [s.CompleteResultSchema, whole],
  CompleteResultResponse: [s.CompleteResultSchema, result],
  DiscoverResult: [s.DiscoverResultSchema, whole],
  DiscoverResultResponse: [s.DiscoverResultSchema, result],
  GetPromptResult: [s.GetPromptResultSchema, whole],
  GetPromptResultResponse: [s.GetPromptResultSchema, result],
  ListPromptsResult: [s.ListPromptsResultSchema, whole],
  ListPromptsResultResponse: [s.ListPromptsResultSchema, result],
  ListResourcesResult: [s.ListResourcesResultSchema, whole],
  ListResourcesResultResponse: [s.ListResourcesResultSchema, result],
  ListResourceTemplatesResult: [s.ListResourceTemplatesResultSchema, whole],
  ListResourceTemplatesResultResponse: [s.ListResourceTemplatesResultSchema, result],
  ListToolsResult: [s.ListToolsResultSchema, whole],
  ListToolsResultResponse: [s.ListToolsResultSchema, result],
  ReadResourceResult: [s.ReadResourceResultSchema, whole],
  ReadResourceResultResponse: [s.ReadResourceResultSchema, result],
  SubscriptionsListenResult: [s.SubscriptionsListenResultSchema, whole],
  SubscriptionsListenResultResponse: [s.SubscriptionsListenResultSchema, result],
  InputRequiredResult: [s.InputRequiredResultSchema, whole],
  InputRequests: [s.InputRequestsSchema, whole],
  ElicitRequest: [s.InputRequestSchema, whole],
  CreateMessageRequest: [s.InputRequestSchema, whole],
  ListRootsRequest: [s.InputRequestSchema, whole],
  ElicitRequestFormParams: [s.ElicitFormParamsSchema, whole],
  ElicitRequestURLParams: [s.ElicitUrlParamsSchema, whole],
  CreateMessageRequestParams: [s.CreateMessageParamsSchema, whole],
  CancelledNotification: [s.ServerNotificationSchema, whole],
  ProgressNotification: [s.ServerNotificationSchema, whole],
  LoggingMessageNotification: [s.ServerNotificationSchema, whole],
  ResourceUpdatedNotification: [s.ServerNotificationSchema, whole],
  ResourceListChangedNotification: [s.ServerNotificationSchema, whole],
  PromptListChangedNotification: [s.ServerNotificationSchema, whole],
  ToolListChangedNotification: [s.ServerNotificationSchema, whole],
  SubscriptionsAcknowledgedNotification: [s.ServerNotificationSchema, whole],
  HeaderMismatchError: [s.ErrorObjectSchema, errorObject],
  InternalError: [s.ErrorObjectSchema, errorObject],
  InvalidParamsError: [s.ErrorObjectSchema, errorObject],
  MethodNotFoundError: [s.ErrorObjectSchema, errorObject],
  MissingRequiredClientCapabilityError: [s.ErrorObjectSchema, errorObject],
  ParseError: [s.ErrorObjectSchema, errorObject],
  UnsupportedProtocolVersionError: [s.ErrorObjectSchema, errorObject],
}

const cases = Object.entries(folders).flatMap(([folder, [schema, pick]]) =>
  readdirSync(join(ROOT, folder)).map((file) => ({ name: `${folder}/${file}`, schema, value: pick(JSON.parse(readFileSync(join(ROOT, folder, file), 'utf8'))) })),
)

describe('the specification examples', () => {
  it('cover every folder the client reads', () => {
    expect(cases.length).toBeGreaterThanOrEqual(91)
    for (const folder of Object.keys(folders)) expect(cases.some((c) => c.name.startsWith(`${folder}/`)), folder).toBe(true)
  })

  it.each(cases)('$name parses to itself', ({ schema, value }) => {
    const parsed = schema.safeParse(value)
    expect(parsed.success ? undefined : s.describe(parsed.error.issues)).toBeUndefined()
    expect(parsed.data).toEqual(value)
  })
})
