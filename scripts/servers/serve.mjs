#!/usr/bin/env node
// Runs the embedded MCP servers until SIGINT/SIGTERM, with an index that tells pages and tools where they are:
//   GET /health   200 once every server answers (503 before)
//   GET /servers  the servers JSON (CORS *)
// Usage: node scripts/servers/serve.mjs [--ports-file <path>]   (index port: SERVERS_INDEX_PORT, 0/unset = ephemeral)
import http from 'node:http'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { closeServer, listenOnLoopback } from './listen.mjs'
import { startServers } from './start.mjs'
import { startAppServers } from './apps.mjs'

function portsFileArg(argv) {
  const i = argv.indexOf('--ports-file')
  if (i === -1) return undefined
  const path = argv[i + 1]
  if (!path || path.startsWith('--')) throw new Error('--ports-file needs a path')
  return path
}

async function main() {
  const portsFile = portsFileArg(process.argv.slice(2))
  const indexPort = Number(process.env.SERVERS_INDEX_PORT || 0)
  if (!Number.isInteger(indexPort) || indexPort < 0 || indexPort > 65535) {
    throw new Error(`SERVERS_INDEX_PORT must be a port number, got "${process.env.SERVERS_INDEX_PORT}"`)
  }

  let servers
  const index = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*')
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    if (path === '/health') return void res.writeHead(servers ? 200 : 503).end(servers ? 'ok' : 'starting')
    if (path === '/servers' && servers) {
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(servers))
    }
    res.writeHead(servers ? 404 : 503).end()
  })
  // The index binds first, so a busy index port fails before any server is started.
  const port = await listenOnLoopback(index, indexPort, 'the servers index')
  const indexUrl = `http://127.0.0.1:${port}`

  // The demo's picker lists two official MCP Apps example servers beside ours, so the index serves the same set.
  let started
  try {
    const parts = await Promise.allSettled([startServers(), startAppServers(['basic-vanillajs', 'system-monitor'])])
    const running = parts.flatMap((p) => (p.status === 'fulfilled' ? [p.value] : []))
    const stop = () => Promise.all(running.map((p) => p.stop()))
    const failed = parts.find((p) => p.status === 'rejected')
    if (failed) {
      await stop()
      throw failed.reason
    }
    started = { servers: Object.assign({}, ...running.map((p) => p.servers)), stop }
  } catch (error) {
    await closeServer(index)
    throw error
  }
  servers = started.servers
  if (portsFile) {
    mkdirSync(dirname(portsFile), { recursive: true })
    writeFileSync(portsFile, JSON.stringify(servers, null, 2))
  }
  console.log(`servers: ${indexUrl}/servers`)
  console.log(JSON.stringify(servers))

  let stopping = false
  const shutdown = async () => {
    if (stopping) return
    stopping = true
    await Promise.all([started.stop(), closeServer(index)])
    if (portsFile) rmSync(portsFile, { force: true })
    process.exit(0)
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}

main().catch((error) => {
  console.error(`serve: ${error.message}`)
  process.exit(1)
})
