// The request-overhead figure in headless Chromium: both clients bundled by Vite into one page served from
// another loopback origin, calling the CORS-enabled embedded modern server (so preflights are real too).
import http from 'node:http'
import { fileURLToPath } from 'node:url'
import { build, runnerImport } from 'vite'
import { chromium } from 'playwright'
import { summarizeRounds } from './overhead.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const PAGE = '<!doctype html><meta charset="utf-8"><title>nanomcp bench</title><script type="module" src="/bench.js"></script>'

async function bundle() {
  const out = await build({
    root,
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: true,
      rolldownOptions: {
        input: fileURLToPath(new URL('./browser-page.mjs', import.meta.url)),
        output: { codeSplitting: false },
      },
    },
  })
  const chunks = (Array.isArray(out) ? out[0] : out).output.filter((c) => c.type === 'chunk')
  if (chunks.length !== 1) throw new Error(`expected one bundle for the page, got ${chunks.length}`)
  return chunks[0].code
}

async function servePage(code) {
  const server = http.createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(PAGE)
    if (req.url === '/bench.js') return void res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(code)
    res.writeHead(404).end()
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  }
}

/** `targets`: `[{ name, url, calls, rounds, warmup }]`, measured one after the other in one page. */
export async function run({ targets, block = 20 }) {
  const { module: flags } = await runnerImport(fileURLToPath(new URL('../chromium.ts', import.meta.url)))
  const page = await servePage(await bundle())
  const browser = await chromium.launch({ executablePath: flags.chromiumPath, args: flags.chromiumArgs, headless: true })
  try {
    const tab = await browser.newPage()
    const errors = []
    tab.on('pageerror', (error) => errors.push(error.message))
    await tab.goto(page.origin)
    await tab.waitForFunction(() => globalThis.bench !== undefined, undefined, { timeout: 15_000 }).catch(() => {
      throw new Error(`the bench page did not start${errors.length ? `: ${errors.join('; ')}` : ''}`)
    })
    const out = []
    for (const { name, url, calls, rounds, warmup } of targets) {
      const perRound = Math.ceil(calls / rounds)
      const { headers, medians } = await tab.evaluate((opts) => globalThis.bench.measure(opts), { url, rounds, perRound, block, warmup })
      out.push({ name, browser: browser.version(), callsPerClient: perRound * rounds, rounds, headers, ...summarizeRounds(medians) })
    }
    return out
  } finally {
    await browser.close()
    await page.close()
  }
}
