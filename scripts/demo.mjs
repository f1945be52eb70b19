// `npm run demo`: installs what is missing, starts the embedded MCP servers and the Vite dev server for the demo
// page, prints the page's URL, and stops everything on Ctrl-C / SIGTERM. Any failure to start is a message and a
// non-zero exit, never a hang.
//
// Options: --port <n> (or DEMO_PORT) asks for exactly that port and fails if it is busy; without it the page gets
// 5173 or the next free port.
import { spawnSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const START_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 5_000

function fail(message) {
  console.error(`\nnpm run demo: ${message}`)
  process.exitCode = 1
}

/** npm stamps node_modules/.package-lock.json on every install; a lock newer than that stamp means `npm ci`. */
function needsInstall() {
  const modules = join(root, 'node_modules')
  if (!existsSync(modules)) return 'node_modules is missing'
  const stamp = existsSync(join(modules, '.package-lock.json')) ? join(modules, '.package-lock.json') : modules
  if (statSync(join(root, 'package-lock.json')).mtimeMs > statSync(stamp).mtimeMs) return 'package-lock.json changed'
  return undefined
}

function requestedPort() {
  const i = process.argv.indexOf('--port')
  const raw = i >= 0 ? process.argv[i + 1] : process.env.DEMO_PORT
  if (raw === undefined) return undefined
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`--port must be a port number, not "${raw}"`)
  return port
}

// Our own servers ask for the same ports on every run, so a page left open (or its address bar) still points at
// them after a restart; a port something else holds falls back to an ephemeral one, and the page then finds
// the server again by its picker entry, which it remembers instead of the URL.
const STABLE_PORTS = { modern: 5180, legacy: 5181, sse: 5182, faults: 5183 }

async function stablePorts() {
  const ports = {}
  for (const [kind, port] of Object.entries(STABLE_PORTS)) {
    ports[kind] = await assertPortFree(port).then(() => port, () => 0)
  }
  return ports
}

/** Fails fast on a busy port, before any MCP server is started for nothing. */
function assertPortFree(port) {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (error) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} on 127.0.0.1 is already in use`) : error),
    )
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()))
  })
}

function withTimeout(promise, ms, what) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

let servers // the startServers() promise, so a Ctrl-C during start-up still stops what it started
let apps // the MCP Apps example servers and the sandbox page's server (scripts/servers/apps.mjs)
let vite
let bridge // the stdio bridge (scripts/servers/stdio-bridge.mjs)
let stopping

function stop() {
  stopping ??= withTimeout(
    (async () => {
      const started = await servers?.catch(() => undefined)
      const appsStarted = await apps?.catch(() => undefined)
      await Promise.allSettled([vite?.close(), started?.stop(), appsStarted?.stop(), bridge?.close()])
    })(),
    STOP_TIMEOUT_MS,
    'stopping the servers',
  ).catch((error) => fail(error.message))
  return stopping
}

function onSignal() {
  console.log('\nStopping the demo…')
  void stop().then(() => process.exit())
}
process.on('SIGINT', onSignal)
process.on('SIGTERM', onSignal)

async function main() {
  const port = requestedPort()
  if (port !== undefined) await assertPortFree(port)
  const reason = needsInstall()
  if (reason) {
    console.log(`${reason}: running npm ci…`)
    const result = spawnSync('npm', ['ci'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
    if (result.status !== 0) throw new Error(`npm ci failed (${result.error?.message ?? `exit code ${result.status}`})`)
  }

  // Imported only now: before `npm ci` neither Vite nor the servers' dependencies may exist.
  const { startServers } = await import('./servers/start.mjs')
  const { createServer: createViteServer } = await import('vite')

  console.log('Starting the embedded MCP servers…')
  servers = startServers({ ports: await stablePorts() })
  // Two official MCP Apps example servers, and sandbox.html on a second loopback origin for their apps.
  apps = import('./servers/apps.mjs').then(({ startAppsDemo }) => startAppsDemo())
  const [started, appsStarted] = await withTimeout(Promise.all([servers, apps]), START_TIMEOUT_MS, 'starting the embedded MCP servers')
  if (stopping) return

  // Vite hands VITE_* variables from the environment to the page as import.meta.env.
  process.env.VITE_MCP_SERVERS = JSON.stringify({ ...started.servers, ...appsStarted.servers })
  process.env.VITE_APPS_SANDBOX_URL = appsStarted.sandbox
  // stdio servers and the "via proxy" choice: local only, both behind the bridge's token (stdio-demo.mjs).
  bridge = await (await import('./servers/stdio-demo.mjs')).startDemoBridge(root)
  vite = await createViteServer({
    root,
    configFile: join(root, 'vite.config.ts'),
    mode: 'demo',
    clearScreen: false,
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: port ?? 5173, strictPort: port !== undefined },
    plugins: [bridge.plugin],
  })
  await vite.listen()
  if (stopping) return
  // Vite exits the process on SIGTERM (and when stdin ends) by itself, which would cut the MCP servers' shutdown
  // short: this script owns the shutdown.
  for (const listener of process.listeners('SIGTERM')) {
    if (listener === onSignal) continue
    process.off('SIGTERM', listener)
    process.stdin.off('end', listener)
  }
  const url = bridge.pageUrl(vite.resolvedUrls?.local[0] ?? `http://127.0.0.1:${vite.config.server.port}/`)

  console.log('\nEmbedded MCP servers:')
  for (const [kind, server] of Object.entries({ ...started.servers, ...appsStarted.servers })) console.log(`  ${kind.padEnd(16)} ${server.url}`)
  console.log(`\nMCP Apps sandbox (a second origin): ${appsStarted.sandbox}`)
  console.log(`\nnanomcp demo: ${url}\n(Ctrl-C stops the page and the servers.)`)
}

main().catch(async (error) => {
  const busy = error?.code === 'EADDRINUSE' || /already in use/i.test(String(error?.message))
  fail(busy ? `${error.message}. Pick another with --port <n>, or stop what is using it.` : (error?.message ?? String(error)))
  await stop()
  process.exit(1)
})
