// The two clients under test, built the way an app builds them. nanomcp comes from dist/ (run.mjs builds it
// when stale); the official client is @modelcontextprotocol/client with 2026-07-28 negotiation switched on.
const CLIENT_INFO = { name: 'nanomcp-bench', version: '1.0.0' }

export const loadNanomcp = () => import(new URL('../../dist/index.js', import.meta.url).href)
export const loadOfficial = () => import('@modelcontextprotocol/client')

/** A nanomcp Client for `url`. */
export function nanoClient(nano, url, options = {}) {
  return new nano.Client(new nano.StreamableHttpTransport(url), { clientInfo: CLIENT_INFO, ...options })
}

/**
 * A connected official Client for `url`. `versionNegotiation: { mode: 'auto' }` probes with server/discover and
 * falls back to initialize; without it the client speaks only the 2025 handshake. `listMaxPages: 0` lifts the
 * 64-page cap of its auto-aggregating list walk (the large-list benchmark has 100 pages).
 */
export async function officialClient(official, url, { connect, ...options } = {}) {
  const client = new official.Client(CLIENT_INFO, { versionNegotiation: { mode: 'auto' }, listMaxPages: 0, ...options })
  await client.connect(new official.StreamableHTTPClientTransport(new URL(url)), connect)
  return client
}
