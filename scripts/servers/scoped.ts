import type { ServerEntry } from './types.ts'

/**
 * The same server in its own scope: independent catalogue state, sessions, listen streams and stats under
 * `/s/<scope>/`, so a test that adds tools or counts requests is not disturbed by others running in parallel.
 * Only our own servers (those with a `control` URL) have scopes.
 */
export function scoped(server: ServerEntry, scope: string): ServerEntry {
  if (server.control === undefined) throw new Error(`${server.url} has no scopes (it is not one of our servers)`)
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(scope)) throw new Error(`scope must match [A-Za-z0-9_-]{1,64}, got "${scope}"`)
  const url = new URL(server.url)
  const control = `${server.control}/s/${scope}`
  return { url: `${url.origin}/s/${scope}${url.pathname}`, control }
}
