// Test helper for the machine grants: a scripted network and `send`, which drives an AuthProvider as a transport does; shared by the grants' unit tests.
import { vi } from 'vitest'
import type { AuthProvider } from '../transport/types'

export const MCP = 'http://127.0.0.1:9/mcp'
export const AS = 'http://127.0.0.1:8'
export const IDP = 'http://127.0.0.1:7'
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

interface TokenCall {
  url: string
  form: URLSearchParams
  authorization: string | null
}

/** A scripted network: the MCP server wants `Bearer <a token the AS issued>`; `token` answers token requests. */
export function network(token: (call: TokenCall) => Response | Promise<Response>, metadata: Record<string, unknown> = {}) {
  const issued = new Set<string>()
  const calls: TokenCall[] = []
  const mcpStatus: number[] = []
  let challenge = `Bearer resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp"`
  let mcp = (authorization: string | null): number => (authorization && issued.has(authorization.slice(7)) ? 200 : 401)
  const fetchFn = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = String(input)
    const headers = new Headers(init.headers)
    if (url === MCP) {
      const status = mcp(headers.get('authorization'))
      mcpStatus.push(status)
      return status === 200 ? json({ jsonrpc: '2.0', id: 1, result: {} }) : new Response(null, { status, headers: { 'www-authenticate': challenge } })
    }
    if (url === 'http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp') return json({ resource: MCP, authorization_servers: [AS], scopes_supported: ['mcp'] })
    if (url === `${AS}/.well-known/oauth-authorization-server`) {
      return json({ issuer: AS, token_endpoint: `${AS}/token`, grant_types_supported: ['client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer'], ...metadata })
    }
    if (url === `${AS}/token` || url === `${IDP}/token`) {
      const call = { url, form: new URLSearchParams(String(init.body)), authorization: headers.get('authorization') }
      calls.push(call)
      const response = await token(call)
      const body = await response.clone().json().catch(() => ({}))
      if (typeof body.access_token === 'string' && url === `${AS}/token`) issued.add(body.access_token)
      return response
    }
    return new Response(null, { status: 404 })
  })
  return {
    fetch: fetchFn as unknown as typeof fetch,
    calls,
    mcpStatus,
    setChallenge: (value: string) => (challenge = value),
    setMcp: (fn: typeof mcp) => (mcp = fn),
    issued,
  }
}

/** One request as a transport sends it: at most two unauthorized() rounds. */
export async function send(auth: AuthProvider, fetchFn: typeof fetch): Promise<number> {
  for (let round = 0; ; round++) {
    const request = { url: MCP, method: 'POST' }
    const response = await fetchFn(MCP, { method: 'POST', headers: await auth.headers(request) })
    auth.response?.(response, request)
    if ((response.status === 401 || response.status === 403) && round < 2 && (await auth.unauthorized(response, request))) continue
    return response.status
  }
}

let n = 0
export const tokenResponse = (extra: Record<string, unknown> = {}) => json({ access_token: `t${++n}`, token_type: 'Bearer', expires_in: 3600, ...extra })
