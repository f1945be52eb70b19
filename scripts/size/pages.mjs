// What a page really downloads: small consumer apps, built by Vite with its default settings as an app built on
// nanomcp would be, loaded into a fresh headless Chromium page each, doing a plain list-and-call against the
// embedded servers (one 2026-07-28 server, one older one). Every JS response the page receives is recorded and
// gzip-sized, so chunks fetched on demand, prefetched or preloaded count as what they are: files and bytes.
import http from 'node:http'
import { gzipSync } from 'node:zlib'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, runnerImport } from 'vite'
import { chromium } from 'playwright'
import { startLegacy } from '../servers/legacy.mjs'
import { startModern } from '../servers/modern.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const pkg = (await import('../../package.json', { with: { type: 'json' } })).default
const ECHO = "{ name: 'echo', arguments: { text: 'size' } }"
// Each app imports the package by its name, statically as an app's entry does, and reports through
// globalThis.done: how many tools it listed and what the call answered, or why it failed.
const app = (imports, body) => `${imports}
const url = new URLSearchParams(location.search).get('server')
;(async () => {
${body}
  globalThis.done = { tools: tools.length, text: result.content[0].text }
})().catch((error) => (globalThis.done = { error: String(error?.stack ?? error) }))
`

/** The consumer apps: list the tools, call one. */
export const APPS = {
  Client: app(
    "import { Client, StreamableHttpTransport } from 'nanomcp'",
    `  const client = new Client(new StreamableHttpTransport(url))
  const { tools } = await client.request('tools/list')
  const result = await client.request('tools/call', ${ECHO})`,
  ),
  // An app watches $tools (which also opens listen(), as createMcp does by default) and calls from the list.
  createMcp: app(
    "import { createMcp } from 'nanomcp'",
    `  const mcp = createMcp(url)
  const tools = await new Promise((resolve, reject) =>
    mcp.$tools.subscribe((state) => (state.error ? reject(state.error) : !state.loading && state.updatedAt > 0 && resolve(state.items))),
  )
  const result = await mcp.callTool('echo', { text: 'size' })`,
  ),
  // The official client with 2026-07-28 negotiation on, as the benchmarks run it.
  official: app(
    "import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'",
    `  const client = new Client({ name: 'size', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  const { tools } = await client.listTools()
  const result = await client.callTool(${ECHO})`,
  ),
}

/** nanomcp's own modules and those of its runtime dependencies: what makes a built file one "of nanomcp". */
const deps = Object.keys(pkg.dependencies ?? {})
const ofNanomcp = (id) => id.startsWith(`${resolve(root, 'src')}/`) || deps.some((d) => id.includes(`/node_modules/${d}/`))

/**
 * Builds one app with Vite's defaults; returns its files by URL path and, in an app of nanomcp's, which of them
 * hold its code (zod in the official client's bundle is not nanomcp's).
 */
async function buildApp(name, code) {
  const ours = /from 'nanomcp'/.test(code)
  const dir = mkdtempSync(join(tmpdir(), `nanomcp-size-${name}-`))
  try {
    writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>app</title><script type="module" src="./main.js"></script>\n')
    writeFileSync(join(dir, 'main.js'), code)
    const out = await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      // The app's package names: `nanomcp` is this repository's source entry, which an app's build splits into the
      // same files as the built package (within a few bytes) without a library build first; the official client
      // is the file its `import` condition names. Everything below them resolves from node_modules.
      resolve: {
        alias: [
          { find: /^nanomcp$/, replacement: resolve(root, 'src/index.ts') },
          { find: /^@modelcontextprotocol\/client$/, replacement: fileURLToPath(import.meta.resolve('@modelcontextprotocol/client')) },
        ],
      },
      build: { write: false },
    })
    const files = new Map()
    for (const file of (Array.isArray(out) ? out[0] : out).output) {
      files.set(`/${file.fileName}`, {
        body: file.type === 'chunk' ? file.code : file.source,
        nanomcp: ours && file.type === 'chunk' && file.moduleIds.some(ofNanomcp),
      })
    }
    return files
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Serves one built app at the root of its own loopback origin (another origin than the servers'). */
async function serve(files) {
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const file = files.get(path === '/' ? '/index.html' : path)
    if (!file) return void res.writeHead(404).end()
    const type = path.endsWith('.js') ? 'text/javascript' : path.endsWith('.css') ? 'text/css' : 'text/html'
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(file.body)
  })
  await new Promise((done) => server.listen(0, '127.0.0.1', done))
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((done) => (server.close(() => done()), server.closeAllConnections())),
  }
}

/**
 * Loads one app in a fresh browser context (empty cache and storage: nothing remembered about the server) and
 * waits until it has listed and called, then until no JS download is pending or starts for a moment.
 */
async function load(browser, url, files) {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    const errors = []
    page.on('pageerror', (error) => errors.push(error.message))
    const scripts = []
    const pending = new Set()
    let last = Date.now()
    // By URL, not by resource type: a <link rel=modulepreload> fetch is typed "other" but is the same download.
    const isScript = (request) => request.url().startsWith(origin) && request.url().endsWith('.js')
    const origin = new URL(url).origin
    page.on('request', (request) => {
      if (!isScript(request)) return
      pending.add(request)
      last = Date.now()
    })
    page.on('requestfinished', async (request) => {
      if (!isScript(request)) return
      try {
        const body = await (await request.response()).body()
        const path = new URL(request.url()).pathname
        scripts.push({ path, gzip: gzipSync(body, { level: 9 }).length, nanomcp: files.get(path)?.nanomcp ?? false })
      } catch (error) {
        errors.push(`${request.url()}: its body could not be read (${error.message})`)
      } finally {
        pending.delete(request)
        last = Date.now()
      }
    })
    page.on('requestfailed', (request) => {
      if (!pending.delete(request)) return
      errors.push(`${request.url()} failed: ${request.failure()?.errorText}`)
    })
    await page.goto(url)
    const done = await page
      .waitForFunction(() => globalThis.done, undefined, { timeout: 30_000 })
      .then((handle) => handle.jsonValue())
      .catch(() => ({ error: `no answer within 30 s${errors.length ? `: ${errors.join('; ')}` : ''}` }))
    if (done.error) throw new Error(`the app at ${url} failed: ${done.error}`)
    if (done.text !== 'size') throw new Error(`the app at ${url} got an unexpected echo: ${JSON.stringify(done)}`)
    // Code fetched right after the answer (a prefetch, a chunk loaded beside it) is still the page's download.
    const deadline = Date.now() + 10_000
    while (pending.size > 0 || Date.now() - last < 300) {
      if (Date.now() > deadline) throw new Error(`the app at ${url} still loads ${[...pending].map((r) => r.url()).join(', ')} after 10 s`)
      await new Promise((r) => setTimeout(r, 50))
    }
    if (errors.length) throw new Error(`the app at ${url} answered, but: ${errors.join('; ')}`)
    return scripts.sort((a, b) => a.path.localeCompare(b.path))
  } finally {
    await context.close()
  }
}

// The embedded servers: one that speaks 2026-07-28, one of the older era (sessions, 2025-11-25), as most are.
const SERVERS = [
  ['2026-07-28 server', startModern],
  ['older server', startLegacy],
]

/**
 * Every (server × app) scenario, fresh page each: `[{ server, app, gzip, files, nanomcpFiles, scripts }]`,
 * where `gzip` sums gzip -9 of each JS file the page downloaded and `files` counts them.
 */
export async function measurePages(apps = APPS) {
  const built = {}
  for (const [name, code] of Object.entries(apps)) built[name] = await buildApp(name, code)
  const { module: flags } = await runnerImport(resolve(root, 'scripts/chromium.ts'))
  // Whatever started is stopped, even when something after it failed to start.
  const open = []
  try {
    const started = async (thing) => (open.push(thing), thing)
    const servers = []
    for (const [name, start] of SERVERS) servers.push([name, await started(await start())])
    const sites = []
    for (const name of Object.keys(apps)) sites.push([name, await started(await serve(built[name]))])
    const launch = { executablePath: flags.chromiumPath, args: flags.chromiumArgs, headless: true }
    const browser = await started(await chromium.launch(launch))
    const rows = []
    for (const [server, { url }] of servers) {
      for (const [app, site] of sites) {
        const scripts = await load(browser, `${site.origin}/?server=${encodeURIComponent(url)}`, built[app])
        rows.push({
          server,
          app,
          gzip: scripts.reduce((n, s) => n + s.gzip, 0),
          files: scripts.length,
          nanomcpFiles: scripts.filter((s) => s.nanomcp).length,
          scripts,
        })
      }
    }
    return rows
  } finally {
    await Promise.all(open.map((thing) => thing.close().catch(() => {})))
  }
}
