// CORS for every embedded endpoint. Browsers preflight every MCP request (MCP-Protocol-Version, Mcp-Method,
// Mcp-Name, Mcp-Param-*, Mcp-Session-Id, Authorization, Last-Event-ID), so the preflight reflects whatever
// headers it is asked for instead of keeping a list that would miss the open-ended Mcp-Param-* family.
const EXPOSED = 'Mcp-Session-Id, WWW-Authenticate, MCP-Protocol-Version, Last-Event-ID'
const FALLBACK_ALLOWED =
  'Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID'

/** Puts the CORS headers on `res`; answers and returns true when `req` is a preflight. */
export function applyCors(req, res) {
  res.setHeader('Access-Control-Allow-Origin', '*')
  res.setHeader('Access-Control-Expose-Headers', EXPOSED)
  if (req.method !== 'OPTIONS') return false
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS')
  res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] || FALLBACK_ALLOWED)
  res.setHeader('Access-Control-Max-Age', '600')
  res.writeHead(204).end()
  return true
}
