// Progress of a request whose answer comes on a session stream (Streamable HTTP's GET stream after a 202, or the
// HTTP+SSE stream): the stream is shared, so a request's progress is told apart by its progress token.
import { idKey } from '../json-rpc'
import type { Pending } from '../pending'
import type { JsonRpcMessage } from '../types'

/** The progress token a request names in `_meta`, as a map key; undefined when it names none. */
export function progressKey(message: JsonRpcMessage): string | undefined {
  const params = 'params' in message ? message.params : undefined
  const token = (params?._meta as { progressToken?: unknown } | undefined)?.progressToken
  return typeof token === 'string' || typeof token === 'number' ? idKey(token) : undefined
}

/** Of a `notifications/progress`, the request it belongs to among `owners` (by progress token). */
export function progressOwner(message: JsonRpcMessage, owners: Map<string, Pending>): Pending | undefined {
  if (!('method' in message) || message.method !== 'notifications/progress') return undefined
  const token = message.params?.progressToken
  return typeof token === 'string' || typeof token === 'number' ? owners.get(idKey(token)) : undefined
}
