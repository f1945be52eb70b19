// nanomcp/shared's worker as an app meets it: a page built by Vite with its defaults from the installed package,
// loaded in headless Chromium, whose shared client must run in the SharedWorker (no fallback) against the embedded
// 2026-07-28 server, list the tools and call one. The worker is an asset the app's bundler copies as it is, so
// only a real build and a real browser show whether it starts.
import http from 'node:http'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, runnerImport } from 'vite'
import { chromium } from 'playwright'
import { startModern } from './servers/modern.mjs'

const PAGE = `import { createSharedMcp } from 'nanomcp/shared'
const url = new URLSearchParams(location.search).get('server')
const mcp = createSharedMcp(url, { modes: ['worker'] })
new Promise((resolve, reject) => {
  // A worker that cannot start fails the connection ($status), not a list.
  mcp.$status.subscribe((s) => s.status === 'error' && reject(s.error))
  mcp.$tools.subscribe((s) => (s.error ? reject(s.error) : !s.loading && s.updatedAt > 0 && resolve(s.items)))
})
  .then(async (tools) => {
    const result = await mcp.callTool('echo', { text: 'shared' })
    globalThis.done = { mode: mcp.$shared.get().mode, tools: tools.length, text: result.content[0].text }
  })
  .catch((error) => {
    const cause = mcp.$shared.get().error?.cause
    globalThis.done = { error: String(error), cause: cause?.message ?? (cause && String(cause)) }
  })
`

/** Builds the page in `app` (where nanomcp is installed) and runs it; throws saying what went wrong. */
export async function checkSharedWorker(app) {
  writeFileSync(join(app, 'index.html'), '<!doctype html><meta charset="utf-8"><title>shared</title><script type="module" src="./main.js"></script>\n')
  writeFileSync(join(app, 'main.js'), PAGE)
  const out = await build({ root: app, configFile: false, logLevel: 'silent', build: { write: false } })
  const files = new Map((Array.isArray(out) ? out[0] : out).output.map((f) => [`/${f.fileName}`, f.type === 'chunk' ? f.code : f.source]))
  const site = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const body = files.get(path === '/' ? '/index.html' : path)
    if (body === undefined) return void res.writeHead(404).end()
    res.writeHead(200, { 'Content-Type': path.endsWith('.js') ? 'text/javascript' : 'text/html' }).end(body)
  })
  await new Promise((done) => site.listen(0, '127.0.0.1', done))
  const closeSite = () => new Promise((done) => (site.close(() => done()), site.closeAllConnections()))
  let server
  let browser
  try {
    server = await startModern()
    const { module: flags } = await runnerImport(fileURLToPath(new URL('./chromium.ts', import.meta.url)))
    browser = await chromium.launch({ executablePath: flags.chromiumPath, args: flags.chromiumArgs, headless: true })
    const page = await browser.newPage()
    await page.goto(`http://127.0.0.1:${site.address().port}/?server=${encodeURIComponent(server.url)}`)
    const done = await page
      .waitForFunction(() => globalThis.done, undefined, { timeout: 20_000 })
      .then((handle) => handle.jsonValue())
      .catch(() => ({ error: 'no answer within 20 s' }))
    if (done.error) throw new Error(`the shared worker of the installed package failed: ${done.error}${done.cause ? ` (${done.cause})` : ''}`)
    if (done.mode !== 'worker' || done.text !== 'shared') throw new Error(`the shared worker answered unexpectedly: ${JSON.stringify(done)}`)
    return done
  } finally {
    await browser?.close()
    await server?.close()
    await closeSite()
  }
}
