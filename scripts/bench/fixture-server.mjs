#!/usr/bin/env node
// A minimal 2026-07-28 server for the benchmarks the embedded servers cannot drive: 10,000 tools over 100 pages
// (`tools/list`) and a 100,000-notification SSE stream (`tools/call` of `flood`). It runs in its own process
// (`node scripts/bench/fixture-server.mjs` prints `{"url":...}`), so its work never shares a thread with the
// client being timed. CORS is open, for the browser benchmark.
import http from 'node:http'
import { applyCors } from '../servers/cors.mjs'
import { buildPages, pageIndex } from './fixture-pages.mjs'
import { sendFlood } from './fixture-flood.mjs'

const DISCOVER = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'nanomcp-bench-fixture', version: '1.0.0' } },
  ttlMs: 0,
  cacheScope: 'private',
}

const reply = (res, status, body) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(body)
const error = (res, status, id, code, message) =>
  reply(res, status, JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: { code, message } }))
const result = (res, id, body) => reply(res, 200, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${body}}`)

async function readJson(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    return undefined
  }
}

/** Starts the fixture on 127.0.0.1 (ephemeral port); resolves with `{ url, close }`. */
export async function startFixture({ pages = buildPages() } = {}) {
  const server = http.createServer(async (req, res) => {
    // The browser benchmark calls the fixture from another origin, like the embedded servers.
    if (applyCors(req, res)) return
    if (req.method !== 'POST') return error(res, 405, null, -32000, 'POST only')
    const message = await readJson(req)
    if (!message || typeof message.method !== 'string') return error(res, 400, null, -32700, 'not a JSON-RPC message')
    if (message.id === undefined) return void res.writeHead(202).end()
    const { id, method, params = {} } = message
    if (method === 'server/discover') return result(res, id, JSON.stringify(DISCOVER))
    if (method === 'tools/list') {
      const index = pageIndex(params.cursor, pages.length)
      if (index === -1) return error(res, 200, id, -32602, `unknown cursor ${JSON.stringify(params.cursor)}`)
      return result(res, id, pages[index])
    }
    if (method === 'tools/call' && params.name === 'echo') {
      const text = String(params.arguments?.text ?? '')
      return result(res, id, JSON.stringify({ resultType: 'complete', content: [{ type: 'text', text }] }))
    }
    if (method === 'tools/call' && params.name === 'flood') {
      const token = params._meta?.progressToken
      const count = Number(params.arguments?.count)
      if (token === undefined) return error(res, 200, id, -32602, 'flood needs a progressToken in _meta')
      if (!Number.isInteger(count) || count < 0 || count > 1_000_000) return error(res, 200, id, -32602, 'count must be 0…1,000,000')
      return void (await sendFlood(res, { id, token, count }))
    }
    // A modern server pairs method-not-found with HTTP 404.
    return error(res, 404, id, -32601, `the bench fixture does not serve ${method}`)
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { url, close } = await startFixture()
  console.log(JSON.stringify({ url }))
  // The parent ends this process by closing its stdin (or by SIGTERM), so an orphan never outlives a crash.
  const stop = () => close().then(() => process.exit(0))
  process.stdin.on('end', stop).resume()
  process.on('SIGTERM', stop)
}
