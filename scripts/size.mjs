#!/usr/bin/env node
// What an app pays, min+gzip with every dependency bundled: `npm run size` prints, `--check` enforces the budget.
// Measured with a plain (non-library) Vite build, because library-mode output keeps whitespace on purpose.
import { build } from 'vite'
import { build as rolldown } from 'rolldown'
import { gzipSync } from 'node:zlib'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

// The core's budget counts zod (design.md "Dependencies"): ≤ 18 KB with zod bundled; the zod-external row
// (an app that already bundles zod pays only the rest) has a 14 KB target, printed, not enforced.
const BUDGET = 18 * 1024
const ZOD_EXTERNAL_TARGET = 14 * 1024
const lib = JSON.stringify(resolve('src/index.ts'))
const zod = (id) => id === 'zod' || id.startsWith('zod/')
const cases = [
  ['Client + StreamableHttpTransport, zod bundled', `export { Client, StreamableHttpTransport } from ${lib}`, BUDGET],
  ['Client + StreamableHttpTransport, zod external', `export { Client, StreamableHttpTransport } from ${lib}`, ZOD_EXTERNAL_TARGET, zod],
  ['+ createMcp', `export { Client, StreamableHttpTransport, createMcp } from ${lib}`],
  // OAuth: oauth() is in the entry; its flow and oauth4webapi are the chunk loaded on demand (first 401 or sign-in).
  ['+ createMcp + oauth (flow on demand)', `export { Client, StreamableHttpTransport, createMcp, oauth } from ${lib}`],
  ['+ SseTransport', `export { Client, StreamableHttpTransport, SseTransport } from ${lib}`],
  ['everything', `export * from ${lib}`],
  // nanomcp/shared, its own entry: what each tab loads (the leader/per-tab host on demand), and the SharedWorker
  // script (createMcp and all it needs, loaded once per origin, apart from the page).
  ['nanomcp/shared: tab', `export { createSharedMcp } from ${JSON.stringify(resolve('src/shared/index.ts'))}`],
  ['nanomcp/shared: worker (its host + createMcp)', `export { createHost } from ${JSON.stringify(resolve('src/shared/host.ts'))}`],
]

/** `external`: ids left out of the bundle (what the app already ships), e.g. zod. */
export async function measure(code, external) {
  const dir = mkdtempSync(join(tmpdir(), 'nanomcp-size-'))
  try {
    const input = join(dir, 'entry.ts')
    writeFileSync(input, code)
    // Rolldown (Vite's bundler and Oxc minifier) without Vite's app layer: a Vite app build wraps every dynamic
    // import in its module-preload helper (~0.5 KB gzip), which the library does not ship (library builds leave it
    // out) and which an app with any lazy route pays once anyway.
    const out = await rolldown({
      input,
      platform: 'browser',
      write: false,
      preserveEntrySignatures: 'strict',
      external,
      // zod's functions are marked free of side effects (@__NO_SIDE_EFFECTS__), so an app that bundles zod drops
      // the schemas nothing uses; with zod left out of the bundle that mark is unseen, and saying so here keeps
      // the zod-external row from counting unused schemas an app would never ship.
      treeshake: external ? { manualPureFunctions: ['z'] } : undefined,
      logLevel: 'silent',
      transform: { define: { 'process.env.NODE_ENV': '"production"' } },
      output: { format: 'es', minify: true, comments: false, topLevelVar: true },
    })
    const chunks = out.output.filter((c) => c.type === 'chunk')
    const size = (list) => {
      const js = list.map((c) => c.code).join('\n')
      return { min: Buffer.byteLength(js), gzip: gzipSync(js, { level: 9 }).length }
    }
    // The entry chunk is what every app downloads; lazy chunks (the HTTP+SSE transport, fetched only when a
    // 2024-11-05 server is met) are reported apart, never dropped.
    const eager = new Set()
    const visit = (chunk) => {
      // An external module (zod, in the zod-external row) is no chunk of ours.
      if (!chunk || eager.has(chunk)) return
      eager.add(chunk)
      for (const name of chunk.imports) visit(chunks.find((c) => c.fileName === name))
    }
    chunks.filter((c) => c.isEntry).forEach(visit)
    return { ...size([...eager]), lazy: size(chunks.filter((c) => !eager.has(c))) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The hosted demo page as `npm run build:demo` builds it: bytes per kind of file, raw and gzip -9. */
export async function measureSite() {
  const out = await build({ configFile: resolve('vite.config.ts'), mode: 'demo', logLevel: 'silent', build: { write: false } })
  const files = (Array.isArray(out) ? out[0] : out).output
  const rows = { HTML: [], JS: [], CSS: [] }
  for (const file of files) {
    const kind = file.fileName.endsWith('.html') ? 'HTML' : file.fileName.endsWith('.js') ? 'JS' : file.fileName.endsWith('.css') ? 'CSS' : undefined
    if (kind) rows[kind].push(file.type === 'chunk' ? file.code : file.source)
  }
  const size = (parts) => ({
    raw: parts.reduce((n, p) => n + Buffer.byteLength(p), 0),
    gzip: parts.reduce((n, p) => n + gzipSync(p, { level: 9 }).length, 0),
  })
  const entries = Object.entries(rows).map(([kind, parts]) => [kind, size(parts)])
  return [...entries, ['total', size(Object.values(rows).flat())]]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let over = false
  for (const [name, code, budget, external] of cases) {
    const { min, gzip, lazy } = await measure(code, external)
    const word = budget === BUDGET ? 'budget' : 'target'
    const verdict = budget ? (gzip > budget ? `  OVER the ${budget / 1024} KB ${word}` : `  (${word} ${budget / 1024} KB)`) : ''
    if (budget === BUDGET && gzip > budget) over = true
    const later = lazy.min ? `   + ${lazy.gzip} B gzip loaded on demand` : ''
    console.log(`${name.padEnd(48)} min ${String(min).padStart(7)} B   min+gzip ${String(gzip).padStart(6)} B${later}${verdict}`)
  }
  // The demo page is not budgeted (it is not what an app ships); printed so its weight stays in view.
  if (!process.argv.includes('--check')) {
    // The official client, measured the same way, for comparison (scripts/bench/bundle-size.mjs has the same case).
    const official = JSON.stringify(fileURLToPath(import.meta.resolve('@modelcontextprotocol/client')))
    const { min, gzip } = await measure(`export { Client, StreamableHTTPClientTransport } from ${official}`)
    console.log(`${'official client + its HTTP transport'.padEnd(48)} min ${String(min).padStart(7)} B   min+gzip ${String(gzip).padStart(6)} B`)
    for (const [kind, { raw, gzip }] of await measureSite()) {
      console.log(`${`demo site (build:demo) ${kind}`.padEnd(48)} raw ${String(raw).padStart(7)} B   gzip     ${String(gzip).padStart(6)} B`)
    }
  }
  if (over && process.argv.includes('--check')) process.exit(1)
}
