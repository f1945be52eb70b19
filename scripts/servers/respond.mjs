// Small writers for answers the servers make themselves (not through an SDK).

export function sendJson(res, status, value) {
  if (res.headersSent) return void res.end()
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value))
}

/** A JSON-RPC error body, the shape MCP clients parse on 4xx answers. */
export function sendRpcError(res, status, code, message, id = null) {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id })
}
