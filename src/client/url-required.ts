// 2025-11-25's URLElicitationRequiredError (-32042): a server refuses a request until the user has visited the
// URLs listed in `data.elicitations`, and expects the client to retry the request afterwards (spec §4, "Legacy
// equivalent"). Legacy only: legacy/session.ts calls it when such an error arrives.
import type { RpcError } from '../errors/rpc-error'
import type { InputRequest } from '../schemas/types'
import type { LegacySession } from './legacy/session'
import { abortable } from '../transport/http'
import { isObject } from '../transport/json-rpc'

/**
 * 2025-11-25's ElicitRequestURLParams (`mode: 'url'`, `message`, `url`, `elicitationId`, optional `_meta`). Stricter
 * than ElicitUrlParamsSchema, which leaves `elicitationId` optional for elicitation/create: a retry after -32042 is
 * matched to the user's visit by that id, so it must be there.
 */
const isUrlElicitation = (item: unknown): item is Record<string, unknown> =>
  isObject(item) &&
  item.mode === 'url' &&
  ['message', 'url', 'elicitationId'].every((key) => typeof item[key] === 'string') &&
  (item._meta === undefined || isObject(item._meta))

/**
 * Hands the URL elicitations a -32042 lists to the app's `onInputRequest` as one round (keys `"0"`, `"1"`, … in
 * list order; the server's `elicitationId` stays in each one's params) and says whether the user accepted every
 * one, which makes the request worth its one retry. False, with nothing shown, when this session never declared
 * URL mode to a 2025-11-25 server (the code means something else elsewhere) or `data.elicitations` is malformed;
 * false when any is declined, cancelled or left unanswered. The handler is bounded by the request's `signal`; what
 * it throws reaches the caller, as in an `input_required` round.
 */
export async function accepted(
  error: RpcError,
  session: LegacySession,
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<boolean> {
  const { wire, era } = session.host
  const handler = wire.options.onInputRequest
  if (!handler || !wire.options.legacyElicitation || (era.version ?? '') < '2025-11-25') return false
  const listed = (error.data as { elicitations?: unknown } | null | undefined)?.elicitations
  // An empty list names nothing to visit, so a retry after it could only fail the same way.
  if (!Array.isArray(listed) || !listed.length || !listed.every(isUrlElicitation)) {
    wire.debug('-32042 whose data.elicitations is not a list of URL-mode elicitations: left to the caller', error.data)
    return false
  }
  const items: Record<string, unknown>[] = listed
  const requests: Record<string, InputRequest> = Object.fromEntries(items.map((item, i) => [String(i), { method: 'elicitation/create', params: item } as InputRequest]))
  const answers = await abortable(Promise.resolve(handler(requests, { method, params, round: 1, signal })), signal)
  // URL mode's accept means only "the user consented" (then visited the page); the retry tells whether it sufficed.
  return items.every((_, i) => (answers?.[String(i)] as { action?: unknown } | undefined)?.action === 'accept')
}
