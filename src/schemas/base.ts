// Building blocks shared by every MCP schema. One set of schemas serves every revision nanomcp speaks
// (2026-07-28 and the four legacy revisions): fields a revision added are optional, fields a revision
// dropped are kept when a server still sends them. Objects are loose: a server may add fields of its own and
// they reach the app untouched (forward compatibility, spec "_meta" and extension rules).
//
// Bytes matter here (every app pays for these): the helpers below stick to the few zod/mini primitives that
// cost least once bundled — z.int(), z.record(), z.enum(), z.discriminatedUnion() and the length/range checks
// each add 0.3–1 KB min+gzip, so integers, ranges and enumerations are refinements and literal lists instead.
import * as z from 'zod/mini'

export const str = z.string()
export const optStr = z.optional(str)
export const optBool = z.optional(z.boolean())
/** A check with the message the error names after the path ("expected integer"). */
export const must = <T>(test: (value: T) => boolean, expected: string) => z.refine<T>(test, { message: `expected ${expected}` })
/** A JSON number that must be whole (error codes, sizes, totals, ttlMs). */
export const int = z.number().check(must(Number.isInteger, 'integer'))
export const optInt = z.optional(int)
/** Any JSON object, every field kept. */
export const jsonObject = z.looseObject({})
export const optObject = z.optional(jsonObject)
/** A request id or progress token: a string or an integer (JSON-RPC, never null here). */
export const id = z.union([str, int])
/** A JSON-RPC error object; `code` is an integer in every revision. */
export const ErrorObjectSchema = z.looseObject({ code: int, message: str, data: z.optional(z.unknown()) })

export const RoleSchema = z.literal(['user', 'assistant'])

export const IconSchema = z.looseObject({ src: str, mimeType: optStr, sizes: z.optional(z.array(str)), theme: z.optional(z.literal(['light', 'dark'])) })
export const icons = z.optional(z.array(IconSchema))

/** Hints for the client about content (2025-03-26+). `priority` runs from 0 (optional) to 1 (required). */
export const AnnotationsSchema = z.looseObject({
  audience: z.optional(z.array(RoleSchema)),
  priority: z.optional(z.number().check(must((p: number) => p >= 0 && p <= 1, 'a number from 0 to 1'))),
  lastModified: optStr,
})
export const annotations = z.optional(AnnotationsSchema)

export const ImplementationSchema = z.looseObject({ name: str, version: str, title: optStr, description: optStr, icons, websiteUrl: optStr })

/**
 * Fields every result may carry. `resultType` is required on 2026-07-28 and absent before; a complete
 * result says "complete" or nothing (spec: a missing resultType means complete). Interim results
 * (`input_required`, the tasks extension's `task`) have schemas of their own.
 */
export const result = { _meta: optObject, resultType: z.optional(z.literal('complete')) }

/**
 * Cache hints of 2026-07-28 list, read and discover results. Optional here because older revisions never
 * send them; a negative ttlMs is legal and means "stale now" (spec: caching).
 */
export const cacheable = { ttlMs: optInt, cacheScope: z.optional(z.literal(['public', 'private'])) }

/** Fields of a page of a paginated list; `nextCursor` absent is the end (an empty string is not). */
export const page = { ...result, ...cacheable, nextCursor: optStr }

/**
 * A union picked by a tag (`type` of a content block, `method` of a request or notification) where a tag
 * this library does not know is kept as it is instead of failing: servers may add kinds (forward
 * compatibility). The static type lists the known kinds only, so that checking the tag narrows the rest.
 */
// Marked pure so that a bundle drops the unions nothing reads (ServerRequestSchema is only a type to the core).
/* @__NO_SIDE_EFFECTS__ */
export function tagged<const T extends readonly z.ZodMiniObject[]>(tag: string, known: T, values: readonly string[]): z.ZodMiniType<z.infer<T[number]>> {
  // `abort` so zod reports every branch: a union whose failing branches all aborted but one returns that one's
  // issues alone, and a known tag with a bad field must be reported from its own branch, not from this one.
  const other = z.looseObject({ [tag]: str.check(z.refine((v: string) => !values.includes(v), { abort: true })) })
  return z.union([...known, other]) as never
}

/** A notification of `method` whose params hold these fields (and `_meta`), or none at all (`bare`). */
export const note = <M extends string, P extends z.core.$ZodLooseShape>(method: M, params: P) =>
  z.looseObject({ jsonrpc: z.optional(z.literal('2.0')), method: z.literal(method), params: z.looseObject({ _meta: optObject, ...params }) })
export const bare = <M extends string>(method: M) => z.looseObject({ jsonrpc: z.optional(z.literal('2.0')), method: z.literal(method), params: optObject })
