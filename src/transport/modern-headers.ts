import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from './types'
import { argumentHeaderValue, encodeHeaderValue } from './header-value'
import type { Debug } from './pending'
import { readParamHeaders, type ParamHeader } from './x-mcp-header'

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion'

/** The revision a 2026-07-28-style message names in its own `_meta`, or undefined for a handshake-era message. */
export function modernVersion(message: JsonRpcMessage): string | undefined {
  const meta = 'params' in message ? message.params?._meta : undefined
  const version = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[VERSION_KEY] : undefined
  return typeof version === 'string' ? version : undefined
}

/**
 * The headers a modern request mirrors from its body: MCP-Protocol-Version, Mcp-Method, Mcp-Name and, for a
 * tools/call of a tool whose schema this transport has seen, Mcp-Param-* for each annotated argument.
 */
export function modernHeaders(
  message: JsonRpcRequest | JsonRpcNotification,
  version: string,
  tools: Map<string, ParamHeader[]>,
): Record<string, string> {
  const params = message.params ?? {}
  const headers: Record<string, string> = { 'MCP-Protocol-Version': version, 'Mcp-Method': message.method }
  const name =
    message.method === 'tools/call' || message.method === 'prompts/get'
      ? params.name
      : message.method === 'resources/read'
        ? params.uri
        : message.method.startsWith('tasks/')
          ? params.taskId
          : undefined
  if (typeof name === 'string') headers['Mcp-Name'] = encodeHeaderValue(name)
  if (message.method === 'tools/call' && typeof name === 'string') {
    for (const { name: header, path } of tools.get(name) ?? []) {
      const value = argumentHeaderValue(path.reduce<unknown>(ownProperty, params.arguments))
      if (value !== undefined) headers[`Mcp-Param-${header}`] = value
    }
  }
  return headers
}

/**
 * Remembers the x-mcp-header annotations of every tool in a modern tools/list result and returns the result
 * without the tools whose annotations are invalid (each dropped with a `debug` line naming it and why).
 *
 * This lives in the HTTP transport, not the client, because SEP-2243 is an HTTP rule: headers exist only here,
 * and a stdio client may ignore the annotations and keep such tools. The transport that must mirror the
 * arguments is also the one that knows which tools it can call correctly.
 */
export function learnTools(response: JsonRpcResponse, tools: Map<string, ParamHeader[]>, debug: Debug): JsonRpcResponse {
  const list = response.result?.tools
  if (!Array.isArray(list)) return response
  const kept = list.filter((tool: unknown) => {
    const { name, inputSchema } = (tool ?? {}) as { name?: unknown; inputSchema?: unknown }
    if (typeof name !== 'string') return true
    const headers = readParamHeaders(inputSchema)
    if (typeof headers === 'string') {
      debug(`dropping tool "${name}" from tools/list: ${headers}`, tool)
      tools.delete(name)
      return false
    }
    if (headers.length) tools.set(name, headers)
    else tools.delete(name)
    return true
  })
  return kept.length === list.length ? response : { ...response, result: { ...response.result, tools: kept } }
}

// Reads own data only: `constructor`, `__proto__` or `prototype` in a path must never reach Object.prototype (a
// function, which no header mirrors, or worse, a value someone polluted it with) and put it in a header.
const FORBIDDEN = new Set(['constructor', '__proto__', 'prototype'])
const ownProperty = (at: unknown, key: string): unknown =>
  typeof at === 'object' && at !== null && !FORBIDDEN.has(key) && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined
