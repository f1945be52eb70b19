import { AbortError } from '../errors/abort-error'
import { CodeLoadError } from '../errors/code-load-error'
import { HttpError } from '../errors/http-error'
import { InputRequiredError } from '../errors/input-required-error'
import { McpError } from '../errors/mcp-error'
import { NetworkError } from '../errors/network-error'
import { OAuthError } from '../errors/oauth-error'
import { ProtocolError } from '../errors/protocol-error'
import { RpcError } from '../errors/rpc-error'
import { TimeoutError } from '../errors/timeout-error'
import { UnsupportedVersionError } from '../errors/unsupported-version-error'
import { SharedError } from './shared-error'

/** An error as it crosses a MessagePort: structured clone keeps neither the class nor the extra fields. */
export interface WireError {
  name: string
  message: string
  stack?: string
  props: Record<string, unknown>
}

const CLASSES: Record<string, { prototype: Error }> = {
  AbortError,
  CodeLoadError,
  HttpError,
  InputRequiredError,
  McpError,
  NetworkError,
  OAuthError,
  ProtocolError,
  RpcError,
  SharedError,
  TimeoutError,
  UnsupportedVersionError,
}

// Data only: an instance of some class (Headers, Response) would arrive as an empty object where it clones at
// all, which says less than leaving it out.
const cloneable = (value: unknown) => {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Error)) {
    const proto = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null) return false
  }
  try {
    structuredClone(value)
    return true
  } catch {
    return false
  }
}

export function encodeError(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), props: {} }
  const props: Record<string, unknown> = {}
  // Own fields (code, status, reason, data, inputRequests...) travel; a field that cannot be cloned (a Response,
  // a function) is left out rather than failing the whole reply.
  for (const [key, value] of Object.entries(error)) if (key !== 'name' && key !== 'message' && cloneable(value)) props[key] = value
  if (error.cause !== undefined && !('cause' in props)) props.cause = cloneable(error.cause) ? error.cause : String(error.cause)
  return { name: error.name, message: error.message, stack: error.stack, props }
}

/** Rebuilds the error with its own class, so `instanceof RpcError` holds in the tab as in the worker. */
export function decodeError(wire: WireError): Error {
  const proto = CLASSES[wire.name]?.prototype ?? (wire.name.endsWith('Error') && wire.name !== 'Error' ? McpError.prototype : Error.prototype)
  const error = Object.create(proto) as Error
  Object.defineProperties(error, {
    message: { value: wire.message, writable: true, configurable: true },
    stack: { value: wire.stack, writable: true, configurable: true },
  })
  Object.assign(error, wire.props, { name: wire.name })
  return error
}

/** Atom values carry an `error` field beside plain data ($status, list states, $subscription, $auth). */
export function encodeValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('error' in value) || !(value.error instanceof Error)) return value
  return { ...value, error: { __error: encodeError(value.error) } }
}

export function decodeValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('error' in value)) return value
  const wire = (value.error as { __error?: WireError } | undefined)?.__error
  return wire ? { ...value, error: decodeError(wire) } : value
}
