// The proxy's own error answers: a status, the `Nanomcp-Proxy-Error` header with the reason, and a JSON-RPC
// error body whose message names the proxy, so a client shows whose refusal it is.
import { cors } from './headers'
import type { ProxyRefusalCode } from './types'

const STATUS: Record<ProxyRefusalCode, number> = {
  'not-found': 404,
  'bad-target': 400,
  'upstream-not-allowed': 403,
  'origin-not-allowed': 403,
  'method-not-allowed': 405,
  'too-large': 413,
  redirect: 502,
  timeout: 504,
  unreachable: 502,
  html: 502,
}

/** `origin`: the page origin to give CORS headers to (null: none, e.g. for a page that is not allowed). */
export function refuse(code: ProxyRefusalCode, message: string, origin: string | null): Response {
  const headers = cors(new Headers({ 'content-type': 'application/json', 'cache-control': 'no-store', 'nanomcp-proxy-error': code }), origin)
  const body = { jsonrpc: '2.0', id: null, error: { code: -32000, message: `nanomcp/proxy: ${message}`, data: { proxyError: code } } }
  return new Response(JSON.stringify(body), { status: STATUS[code], headers })
}
