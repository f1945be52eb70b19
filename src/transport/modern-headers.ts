import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from './types'
import { encodeHeaderValue } from './header-value'
import { load } from './load'
import type { Debug } from './pending'
import type { Mirror } from './x-mcp-header'

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion'

/** The revision a 2026-07-28-style message names in its own `_meta`, or undefined for a legacy-era message. */
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
  tools: Map<string, Mirror>,
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
  if (message.method === 'tools/call' && typeof name === 'string') Object.assign(headers, tools.get(name)?.(params.arguments))
  return headers
}

/**
 * Remembers the x-mcp-header annotations of every tool in a modern tools/list result and resolves with the
 * result without the tools whose annotations are invalid (each dropped with a `debug` line naming it and why).
 *
 * This lives in the HTTP transport, not the client, because SEP-2243 is an HTTP rule: headers exist only here,
 * and a stdio client may ignore the annotations and keep such tools. The transport that must mirror the
 * arguments is also the one that knows which tools it can call correctly. `plain`: the text the answer came in
 * was `unmentioned`, so no schema needs walking.
 */
export function learnTools(response: JsonRpcResponse, tools: Map<string, Mirror>, debug: Debug, signal?: AbortSignal, plain = false): JsonRpcResponse | Promise<JsonRpcResponse> {
  const list = response.result?.tools
  if (!Array.isArray(list)) return response
  // Few tools carry annotations yet, so their validation loads only when a schema mentions one; tools listed
  // without any lose what an earlier listing taught (a tool may have dropped its annotations since).
  if (!plain && list.some((tool) => mentions((tool as { inputSchema?: unknown } | null)?.inputSchema))) {
    return load('x-mcp-header validation', () => import('./x-mcp-header'), signal).then(({ learnAnnotated }) => learnAnnotated(response, list, tools, debug))
  }
  if (tools.size) for (const tool of list) {
    const name = (tool as { name?: unknown } | null)?.name
    if (typeof name === 'string') tools.delete(name)
  }
  return response
}

/**
 * Whether the JSON text of an answer cannot hold an `x-mcp-header` key: the name is not in it, and no escape
 * (`\u002d`…) could spell it. One scan of the text is far cheaper than walking every tool's schema (2 ms per
 * 10,000 tools), and it is exact: a text that fails it has its schemas walked.
 */
export const unmentioned = (text: string): boolean => !text.includes('x-mcp-header') && !text.includes('\\u')

/**
 * Whether the key appears anywhere in a JSON value: a cheap superset of where an annotation may be. Every tool of
 * every listing passes here, so it walks without allocating (Object.values would copy each level). A JSON value
 * has no inherited enumerable keys, so for-in sees its own.
 */
function mentions(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false
  if (Object.hasOwn(node, 'x-mcp-header')) return true
  for (const key in node) if (mentions((node as Record<string, unknown>)[key])) return true
  return false
}
