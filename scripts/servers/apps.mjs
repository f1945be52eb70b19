// The official MCP Apps example servers from npm, each a child process on loopback. They bind every interface
// and take no host option, so the force-loopback preload pins them to 127.0.0.1 on an ephemeral port it reports.
import { fileURLToPath } from 'node:url'
import { spawnLoopback } from './loopback-child.mjs'

export const APP_SERVERS = ['basic-vanillajs', 'basic-react', 'system-monitor', 'budget-allocator']
const entry = (name) => fileURLToPath(new URL(`../../node_modules/@modelcontextprotocol/server-${name}/dist/index.js`, import.meta.url))

/** Starts one example server; resolves `{ url, close }` once it listens, rejects (child killed) if it does not. */
export function startAppServer(name, { timeoutMs = 60_000 } = {}) {
  const { child, exited, close, output } = spawnLoopback([entry(name)], { PORT: '0' })
  return new Promise((resolve, reject) => {
    let settled = false
    const fail = (why) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void close().then(() => reject(new Error(`server-${name} did not start: ${why}\n${output().trim()}`)))
    }
    const timer = setTimeout(() => fail(`no port within ${timeoutMs / 1000} s`), timeoutMs)
    child.once('error', (error) => fail(error.message))
    exited.then(({ code, signal }) => fail(`it exited (${signal ?? `code ${code}`})`))
    child.on('message', (message) => {
      if (settled || message?.type !== 'listening') return
      clearTimeout(timer)
      settled = true
      resolve({ url: `http://127.0.0.1:${message.port}/mcp`, close })
    })
  })
}

/** Starts `names` (default: all four); resolves `{ servers: { [name]: { url } }, stop }`. */
export async function startAppServers(names = APP_SERVERS, options) {
  const outcomes = await Promise.allSettled(names.map((name) => startAppServer(name, options)))
  const running = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))
  const stop = () => Promise.all(running.map((s) => s.close())).then(() => {})
  const failed = outcomes.find((o) => o.status === 'rejected')
  if (failed) {
    await stop()
    throw failed.reason
  }
  return { servers: Object.fromEntries(names.map((name, i) => [name, { url: outcomes[i].value.url }])), stop }
}

/**
 * Serves nanomcp's sandbox.html alone on 127.0.0.1 (a port of its own, so an origin of its own), as any static
 * host would. Resolves `{ url, close }`.
 */
export async function serveSandbox() {
  const { createServer } = await import('node:http')
  const { readFile } = await import('node:fs/promises')
  const file = fileURLToPath(new URL('../../src/apps/sandbox.html', import.meta.url))
  const server = createServer(async (req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/sandbox.html') return void res.writeHead(404).end('not found')
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(await readFile(file))
  })
  await new Promise((done) => server.listen(0, '127.0.0.1', done))
  return {
    url: `http://127.0.0.1:${server.address().port}/sandbox.html`,
    close: () => new Promise((done) => (server.close(() => done()), server.closeAllConnections())),
  }
}

/** For `npm run demo`: two example servers and the sandbox page. Resolves `{ servers, sandbox, stop }`. */
export async function startAppsDemo() {
  const [started, sandbox] = await Promise.all([startAppServers(['basic-vanillajs', 'system-monitor']), serveSandbox()])
  return { servers: started.servers, sandbox: sandbox.url, stop: () => Promise.all([started.stop(), sandbox.close()]).then(() => {}) }
}
