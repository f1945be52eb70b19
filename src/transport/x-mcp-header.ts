// Validation of `x-mcp-header` annotations in a tool's inputSchema (SEP-2243): which arguments a client must
// mirror into Mcp-Param-* headers. Any invalid annotation makes the whole tool invalid. Loaded on demand, by
// modern-headers' learnTools, when a tools/list result mentions the annotation.
import type { JsonRpcResponse } from './types'
import type { Debug } from './pending'
import { encodeHeaderValue } from './header-value'

/** A tool's Mcp-Param-* headers for the arguments of one call (none for an argument that is absent or null). */
export type Mirror = (args: unknown) => Record<string, string>

/** One mirrored argument: the header suffix and the property path from the arguments object. */
export interface ParamHeader {
  name: string
  path: string[]
}

// RFC 9110 `token`.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const MIRRORABLE = ['string', 'integer', 'boolean']
// Keywords whose values are data, not subschemas: an `x-mcp-header` key inside them annotates nothing.
const DATA_KEYWORDS = new Set(['const', 'default', 'enum', 'examples'])

/**
 * Reads the annotations of one inputSchema. Returns them (possibly none), or the reason the tool is invalid.
 * Valid: a non-empty token, case-insensitively unique, on a string/integer/boolean property reached purely
 * through `properties` from the root (not through items, anyOf, $ref, $defs, if/then/else, ...).
 */
export function readParamHeaders(schema: unknown): ParamHeader[] | string {
  const found: ParamHeader[] = []
  const seen = new Set<string>()
  const visit = (node: unknown, path: string[] | undefined): string | undefined => {
    if (typeof node !== 'object' || node === null) return undefined
    if (Array.isArray(node)) {
      for (const item of node) {
        const problem = visit(item, undefined)
        if (problem) return problem
      }
      return undefined
    }
    const record = node as Record<string, unknown>
    if ('x-mcp-header' in record) {
      const name = record['x-mcp-header']
      const where = path?.length ? `property "${path.join('.')}"` : 'a schema that is not a property'
      if (!path?.length) return `x-mcp-header on ${where}: only properties reached through "properties" from the root may carry it`
      if (typeof name !== 'string' || name === '') return `x-mcp-header on ${where} is empty or not a string`
      if (!TOKEN.test(name)) return `x-mcp-header "${name}" on ${where} has characters a header name cannot carry`
      if (!MIRRORABLE.includes(record.type as string)) {
        return `x-mcp-header "${name}" on ${where}: only string, integer and boolean properties may carry it`
      }
      if (seen.has(name.toLowerCase())) return `x-mcp-header "${name}" is declared twice (case-insensitively)`
      seen.add(name.toLowerCase())
      found.push({ name, path })
    }
    for (const [key, value] of Object.entries(record)) {
      if (DATA_KEYWORDS.has(key) || key === 'x-mcp-header') continue
      if (key === 'properties' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const [property, child] of Object.entries(value)) {
          const problem = visit(child, path && [...path, property])
          if (problem) return problem
        }
      } else {
        const problem = visit(value, undefined)
        if (problem) return problem
      }
    }
    return undefined
  }
  return visit(schema, []) ?? found
}

/** learnTools (modern-headers.ts) for a list where some schema mentions the annotation. */
export function learnAnnotated(response: JsonRpcResponse, list: unknown[], tools: Map<string, Mirror>, debug: Debug): JsonRpcResponse {
  const kept = list.filter((tool: unknown) => {
    const { name, inputSchema } = (tool ?? {}) as { name?: unknown; inputSchema?: unknown }
    if (typeof name !== 'string') return true
    const headers = readParamHeaders(inputSchema)
    if (typeof headers === 'string') {
      debug(`dropping tool "${name}" from tools/list: ${headers}`, tool)
      tools.delete(name)
      return false
    }
    if (headers.length) tools.set(name, mirror(headers))
    else tools.delete(name)
    return true
  })
  return kept.length === list.length ? response : { ...response, result: { ...response.result, tools: kept } }
}

function mirror(headers: ParamHeader[]): Mirror {
  return (args) => {
    const out: Record<string, string> = {}
    for (const { name, path } of headers) {
      const value = argumentHeaderValue(path.reduce<unknown>(ownProperty, args))
      if (value !== undefined) out[`Mcp-Param-${name}`] = value
    }
    return out
  }
}

/**
 * The header value of a tool argument: strings as-is, integers in decimal, booleans as true/false, each then
 * encoded. Undefined for null, absent, and values no header can mirror (objects, arrays), so the header is left out.
 */
export function argumentHeaderValue(value: unknown): string | undefined {
  if (typeof value === 'string') return encodeHeaderValue(value)
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

// Reads own data only: `constructor`, `__proto__` or `prototype` in a path must never reach Object.prototype (a
// function, which no header mirrors, or worse, a value someone polluted it with) and put it in a header.
const FORBIDDEN = new Set(['constructor', '__proto__', 'prototype'])
const ownProperty = (at: unknown, key: string): unknown =>
  typeof at === 'object' && at !== null && !FORBIDDEN.has(key) && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined
