// A tool's definition is what the model is told: a server that rewrites a description or widens a schema
// after the user approved the tool changes what the model will do with it. The digest covers exactly that.
import type { Tool } from '../schemas/types'
import { isObject } from '../transport/json-rpc'

/**
 * A stable SHA-256 digest (hex) over the tool's name, title, description, input and output schemas and
 * annotations, in canonical JSON: key order, `_meta` and icons do not change it; any change of wording does.
 */
export async function toolFingerprint(tool: Tool): Promise<string> {
  const { name, title, description, inputSchema, outputSchema, annotations } = tool
  // Object keys sorted at every depth: servers re-serialise their definitions freely.
  const text = JSON.stringify({ name, title, description, inputSchema, outputSchema, annotations }, (_key, item: unknown) =>
    isObject(item) ? Object.fromEntries(Object.keys(item).sort().map((key) => [key, item[key]])) : item,
  )
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return Array.from(new Uint8Array(hash), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
