import { ProtocolError } from '../errors/protocol-error'
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from './types'

/**
 * Parses one JSON-RPC message, or a batch array of them (2025-03-26 servers may batch), from response text.
 * Only the envelope is checked here; the client validates results against their schemas.
 */
export function parseMessages(text: string): JsonRpcMessage[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ProtocolError('malformed-json', `Got malformed JSON (${(error as Error).message})`, text.slice(0, 1000))
  }
  // One message (every SSE event, nearly every JSON answer) is checked without going through every().
  if (Array.isArray(value) ? value.length === 0 || !value.every(isMessage) : !isMessage(value)) {
    throw new ProtocolError('not-json-rpc', 'JSON that is not a JSON-RPC 2.0 message', value)
  }
  return (Array.isArray(value) ? value : [value]) as JsonRpcMessage[]
}

export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !('method' in message)
}

/** A Map key that keeps `1` and `"1"` apart, as JSON-RPC does. */
export const idKey = (id: JsonRpcId | null): string => JSON.stringify(id)

const isId = (id: unknown) => typeof id === 'string' || typeof id === 'number'
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function isMessage(value: unknown): value is JsonRpcMessage {
  if (!isObject(value) || value.jsonrpc !== '2.0') return false
  if ('method' in value) {
    return typeof value.method === 'string' && (!('id' in value) || isId(value.id)) && (value.params === undefined || isObject(value.params))
  }
  if (!(isId(value.id) || value.id === null)) return false
  const { error } = value
  // JSON-RPC 2.0: a response carries result or error, never both; guessing which one the server meant would
  // hand the caller either a failure that succeeded or a success that failed.
  return 'error' in value
    ? !('result' in value) && isObject(error) && typeof error.code === 'number' && typeof error.message === 'string'
    : isObject(value.result)
}
