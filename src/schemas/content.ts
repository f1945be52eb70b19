// Content blocks (tool results, prompt messages, sampling) and resource contents. Sampling's own blocks
// (tool_use, tool_result) are in requests.ts, with the sampling request that alone carries them.
import * as z from 'zod/mini'
import { annotations, icons, must, optInt, optObject, optStr, str, tagged } from './base'

const block = { annotations, _meta: optObject }

export const TextContentSchema = z.looseObject({ type: z.literal('text'), text: str, ...block })
export const ImageContentSchema = z.looseObject({ type: z.literal('image'), data: str, mimeType: str, ...block })
/** 2025-03-26+. */
export const AudioContentSchema = z.looseObject({ type: z.literal('audio'), data: str, mimeType: str, ...block })
/** 2025-06-18+: a pointer to a resource the client may read, not its contents. */
export const ResourceLinkSchema = z.looseObject({
  type: z.literal('resource_link'),
  uri: str,
  name: str,
  title: optStr,
  description: optStr,
  mimeType: optStr,
  size: optInt,
  icons,
  ...block,
})

const contents = { uri: str, mimeType: optStr, _meta: optObject }
export const TextResourceContentsSchema = z.looseObject({ ...contents, text: str })
/** `blob` is base64. */
export const BlobResourceContentsSchema = z.looseObject({ ...contents, blob: str })

/**
 * Text or blob contents. One object with a check rather than a union: a union's error would not say which
 * field is missing, and an item with both (which no revision forbids) keeps both.
 */
export const ResourceContentsSchema = z
  .looseObject({ ...contents, text: optStr, blob: optStr })
  .check(must((c: { text?: string; blob?: string }) => c.text !== undefined || c.blob !== undefined, '"text" or "blob"')) as unknown as z.ZodMiniType<
  // `?: undefined` on the other field, so `item.text !== undefined` tells the two apart.
  (z.infer<typeof TextResourceContentsSchema> & { blob?: undefined }) | (z.infer<typeof BlobResourceContentsSchema> & { text?: undefined })
>

export const EmbeddedResourceSchema = z.looseObject({ type: z.literal('resource'), resource: ResourceContentsSchema, ...block })

/**
 * One content block, checked by its `type`. A block of a type newer than this library passes through
 * unchanged (its static type stays the five known kinds: a `switch (block.type)` needs a default branch).
 */
export const ContentBlockSchema = tagged('type', [TextContentSchema, ImageContentSchema, AudioContentSchema, ResourceLinkSchema, EmbeddedResourceSchema], ['text', 'image', 'audio', 'resource_link', 'resource'])
