#!/usr/bin/env node
// What an app pays, min+gzip with every dependency bundled: `npm run size` prints, `--check` enforces the budget.
// Measured with a plain (non-library) bundle, because library-mode output keeps whitespace on purpose.
import { build } from 'vite'
import { build as rolldown } from 'rolldown'
import { gzipSync } from 'node:zlib'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

// The core's budgets count zod (design.md "Dependencies"). Issue 13 asked for ≤ 18 KB min+gzip with zod bundled
// and ≤ 14 KB beside an app that already bundles zod. Measured on 2026-12-03 after the handshake era (client
// session, listen set-up, the transport's GET stream and resumption), listen()'s machine, tasks, input requests,
// x-mcp-header validation and mirroring, the notification schemas (their code arrives with the era's or listen()'s
// chunk) and the words of a malformed message's error moved to chunks loaded on demand: 19,713 B bundled, 14,170 B
// zod external (progress notifications now checked too); 19,834 / 14,292 B after three speed fixes to the list path
// (x-mcp-header text scan, the quick check's loop, one decode of a chunked body). The zod-external goal is met and
// is the budget; the bundled budget sits a little above today's figure, so real growth of the core fails `npm test`,
// and its goal stays printed.
// What limits the bundled row is printed by part (below): the three dependencies design.md names come to ~7.1 KB of
// it (zod/mini ~5.5 KB, of which a loose object of one string with safeParse alone is 4.4 KB; eventsource-parser
// ~1.2 KB; nanostores' atom ~0.3 KB), so 18 KB leaves nanomcp's own code ~11.3 KB where it needs ~12.7 KB: what
// every request of either era needs before its first answer (era negotiation, the probe and its fallback table, POST
// with JSON or SSE answers, redirect/auth-safe fetch, bounded waits, every result's schema, and the quick pre-check
// that keeps 10,000 tools fast). Short of dropping a named dependency (the design forbids it), the ways found to
// close the gap would make the figure say less than it seems to: the SSE parser as a chunk that nearly every session
// loads anyway, or schemas written as bare predicates (z.custom) instead of zod's own types, which apps reuse.
const BUDGET = 19.5 * 1024
const ZOD_EXTERNAL_BUDGET = 14 * 1024
/** Issue 13's goals, printed beside the budgets until they are met. */
const GOALS = { [BUDGET]: 18 * 1024, [ZOD_EXTERNAL_BUDGET]: 14 * 1024 }
const lib = JSON.stringify(resolve('src/index.ts'))
const zod = (id) => id === 'zod' || id.startsWith('zod/')
const cases = [
  ['Client + StreamableHttpTransport, zod bundled', `export { Client, StreamableHttpTransport } from ${lib}`, BUDGET],
  ['Client + StreamableHttpTransport, zod external', `export { Client, StreamableHttpTransport } from ${lib}`, ZOD_EXTERNAL_BUDGET, zod],
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
      // The entry must keep its exports (an app's entry would use them); 'allow-extension' also lets modules shared
      // by the entry and a lazy chunk join the entry chunk, as they do in an app build, instead of becoming extra
      // eager chunks whose import/export glue no app ships ('strict' counted ~350 B of it, 2026-12-03).
      preserveEntrySignatures: 'allow-extension',
      external,
      // zod's functions are marked free of side effects (@__NO_SIDE_EFFECTS__), so an app that bundles zod drops
      // the schemas nothing uses; with zod left out of the bundle that mark is unseen, and saying so here keeps
      // the zod-external row from counting unused schemas an app would never ship.
      treeshake: external ? { manualPureFunctions: ['z'] } : undefined,
      logLevel: 'silent',
      // Vite's default build target (baseline-widely-available), so rows match what a Vite app ships.
      transform: { target: ['chrome111', 'edge111', 'firefox114', 'safari16.4', 'ios16.4'], define: { 'process.env.NODE_ENV': '"production"' } },
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
    const goal = budget && gzip > GOALS[budget] ? `; goal ${GOALS[budget] / 1024} KB not met` : ''
    const verdict = budget ? (gzip > budget ? `  OVER the ${budget / 1024} KB budget` : `  (budget ${budget / 1024} KB${goal})`) : ''
    if (budget && gzip > budget) over = true
    const later = lazy.min ? `   + ${lazy.gzip} B gzip loaded on demand` : ''
    console.log(`${name.padEnd(48)} min ${String(min).padStart(7)} B   min+gzip ${String(gzip).padStart(6)} B${later}${verdict}`)
  }
  // Where the bundled core row goes: each dependency is left out of the bundle in turn (zod, then eventsource-parser
  // too, then nanostores too) and its part is what the row lost; what is left is nanomcp's own. What limits that row
  // is read here, not asserted.
  const core = `export { Client, StreamableHttpTransport } from ${lib}`
  const without = (names) => (id) => names.some((name) => id === name || id.startsWith(`${name}/`))
  const parts = [['zod'], ['zod', 'eventsource-parser'], ['zod', 'eventsource-parser', 'nanostores']]
  const sizes = [(await measure(core)).gzip]
  for (const names of parts) sizes.push((await measure(core, without(names))).gzip)
  const split = [`nanomcp ${sizes[3]} B`, `zod ${sizes[0] - sizes[1]} B`, `eventsource-parser ${sizes[1] - sizes[2]} B`, `nanostores ${sizes[2] - sizes[3]} B`]
  console.log(`${'Client + StreamableHttpTransport, by part'.padEnd(48)} ${split.join(', ')}`)
  // The official client, measured the same way (it depends on zod too), beside the two core rows.
  const official = JSON.stringify(fileURLToPath(import.meta.resolve('@modelcontextprotocol/client')))
  for (const [label, external] of [['zod bundled'], ['zod external', zod]]) {
    const { min, gzip } = await measure(`export { Client, StreamableHTTPClientTransport } from ${official}`, external)
    console.log(`${`official Client + HTTP transport, ${label}`.padEnd(48)} min ${String(min).padStart(7)} B   min+gzip ${String(gzip).padStart(6)} B`)
  }
  // The demo page is not budgeted (it is not what an app ships); printed so its weight stays in view.
  if (!process.argv.includes('--check')) {
    for (const [kind, { raw, gzip }] of await measureSite()) {
      console.log(`${`demo site (build:demo) ${kind}`.padEnd(48)} raw ${String(raw).padStart(7)} B   gzip     ${String(gzip).padStart(6)} B`)
    }
  }
  if (over && process.argv.includes('--check')) process.exit(1)
}
