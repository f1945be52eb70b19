#!/usr/bin/env node
// What an app pays for nanomcp, min+gzip: `npm run size` prints it, `--check` enforces the budgets, `--files` also
// lists each page scenario's files.
//
// Budgets:
// - the core (Client + StreamableHttpTransport, zod bundled) ≤ 24.5 KB: the client as one piece, with only what few
//   apps need left to load on demand, so a page gets what it uses in one file instead of waiting on a chain of them;
// - a Vite app listing and calling tools on an older server loads at most 3 JS files of nanomcp: most servers met
//   today are of the older era, and each extra file is a round trip and a way for a deploy to break a page;
// - nanomcp/apps adds ≤ 6 KB and nanomcp/ai ≤ 3 KB beside the core with createMcp, so the subpaths stay small
//   next to the packages they replace (printed beside them).
//
// Three kinds of figures:
// - bundle rows: an entry bundled by Rolldown (bundle.mjs), the entry chunk and its static imports, with what
//   loads on demand printed apart;
// - page rows: consumer apps built by Vite with its defaults and loaded in headless Chromium against a 2026-07-28
//   server and an older one (pages.mjs); every JS file the fresh page downloads, each gzipped, and their count;
// - subpath rows: what each subpath adds to the core (subpaths.mjs).
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { measure, measureSite } from './size/bundle.mjs'

// The benchmarks import measure() from here; the browser and servers of the page rows load only when this runs.
export { measure, measureSite }

const CORE_BUDGET = 24.5 * 1024
const OLDER_SERVER_FILES = 3
const lib = JSON.stringify(resolve('src/index.ts'))
const zod = (id) => id === 'zod' || id.startsWith('zod/')
const CORE = `export { Client, StreamableHttpTransport } from ${lib}`
const cases = [
  ['Client + StreamableHttpTransport, zod bundled', CORE, CORE_BUDGET],
  ['Client + StreamableHttpTransport, zod external', CORE, undefined, zod],
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

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
const bytes = (n) => `${String(n).padStart(6)} B`
const files = (n) => `${n} JS file${n === 1 ? '' : 's'}`

if (import.meta.url === `file://${process.argv[1]}`) {
  const { measurePages } = await import('./size/pages.mjs')
  const { measureSubpaths } = await import('./size/subpaths.mjs')
  const check = process.argv.includes('--check')
  const failures = []
  const fail = (why) => failures.push(why)

  console.log('Bundles (Rolldown, min+gzip -9; "+ … on demand": chunks fetched only when needed)')
  for (const [name, code, budget, external] of cases) {
    const { min, gzip, lazy } = await measure(code, external)
    const later = lazy.min ? `   + ${lazy.gzip} B on demand` : ''
    const verdict = budget ? (gzip > budget ? `   OVER the ${kb(budget)} budget` : `   (budget ${kb(budget)})`) : ''
    if (budget && gzip > budget) fail(`${name}: ${gzip} B is over the ${kb(budget)} budget`)
    console.log(`  ${name.padEnd(48)} min ${String(min).padStart(7)} B   min+gzip ${bytes(gzip)}${later}${verdict}`)
  }
  // Where the bundled core row goes: each dependency is left out of the bundle in turn (zod, then eventsource-parser
  // too, then nanostores too) and its part is what the row lost; what is left is nanomcp's own.
  const without = (names) => (id) => names.some((name) => id === name || id.startsWith(`${name}/`))
  const parts = [['zod'], ['zod', 'eventsource-parser'], ['zod', 'eventsource-parser', 'nanostores']]
  const sizes = [(await measure(CORE)).gzip]
  for (const names of parts) sizes.push((await measure(CORE, without(names))).gzip)
  const split = [`nanomcp ${sizes[3]} B`, `zod ${sizes[0] - sizes[1]} B`, `eventsource-parser ${sizes[1] - sizes[2]} B`, `nanostores ${sizes[2] - sizes[3]} B`]
  console.log(`  ${'Client + StreamableHttpTransport, by part'.padEnd(48)} ${split.join(', ')}`)
  // The official client, measured the same way (it depends on zod too), beside the two core rows.
  const official = JSON.stringify(fileURLToPath(import.meta.resolve('@modelcontextprotocol/client')))
  for (const [label, external] of [['zod bundled'], ['zod external', zod]]) {
    const { min, gzip } = await measure(`export { Client, StreamableHTTPClientTransport } from ${official}`, external)
    console.log(`  ${`official Client + HTTP transport, ${label}`.padEnd(48)} min ${String(min).padStart(7)} B   min+gzip ${bytes(gzip)}`)
  }

  console.log('\nWhat a fresh page downloads to list tools and call one (a Vite app, default build; every JS file, gzip -9 each)')
  console.log(`  ${'scenario'.padEnd(36)} ${'nanomcp'.padEnd(26)} @modelcontextprotocol/client 2.4.0`)
  const pages = await measurePages()
  for (const row of pages.filter((r) => r.app !== 'official')) {
    const theirs = row.app === 'Client' && pages.find((r) => r.app === 'official' && r.server === row.server)
    const other = theirs ? `${bytes(theirs.gzip)} in ${files(theirs.files)}` : '—'
    const ours = `${bytes(row.gzip)} in ${files(row.files)}`
    console.log(`  ${`${row.server}, ${row.app}`.padEnd(36)} ${ours.padEnd(26)} ${other}`)
    // `--files`: which files, to see what a scenario fetches beyond its entry.
    if (process.argv.includes('--files')) for (const s of row.scripts) console.log(`      ${s.path.padEnd(40)} ${bytes(s.gzip)}`)
  }
  const older = pages.find((r) => r.app === 'Client' && r.server === 'older server')
  const verdict = older.nanomcpFiles > OLDER_SERVER_FILES ? 'OVER the budget' : 'within the budget'
  console.log(`  older server, Client: ${older.nanomcpFiles} JS files of nanomcp, ${verdict} of ${OLDER_SERVER_FILES}`)
  if (older.nanomcpFiles > OLDER_SERVER_FILES) {
    fail(`a Vite app listing and calling on an older server loads ${older.nanomcpFiles} JS files of nanomcp (budget ${OLDER_SERVER_FILES}): ${older.scripts.filter((s) => s.nanomcp).map((s) => s.path).join(', ')}`)
  }

  console.log('\nSubpaths: what each adds beside Client + StreamableHttpTransport + createMcp, zod bundled; beside them, whole bundles')
  for (const row of await measureSubpaths()) {
    const note = row.note ? `, ${row.note}` : ''
    if (!row.present) console.log(`  ${`${row.name}${note}`.padEnd(48)} not present (budget ${kb(row.budget)}, not checked)`)
    else if (row.error) {
      fail(`${row.name} could not be bundled: ${row.error}`)
      console.log(`  ${`${row.name}${note}`.padEnd(48)} could not be bundled: ${row.error}`)
    } else {
      const over = row.added > row.budget
      if (over) fail(`${row.name} adds ${row.added} B beside the core, over its ${kb(row.budget)} budget`)
      const later = row.total.lazy.min ? `; core + it: ${row.total.gzip} B + ${row.total.lazy.gzip} B on demand` : `; core + it: ${row.total.gzip} B`
      console.log(`  ${`${row.name}${note}`.padEnd(48)} adds ${bytes(row.added)}${later}   ${over ? 'OVER' : 'within'} the ${kb(row.budget)} budget`)
    }
    for (const peer of row.peers) console.log(`    ${peer.label.padEnd(62)} min+gzip ${bytes(peer.gzip)}`)
  }

  // The demo page is not budgeted (it is not what an app ships); printed so its weight stays in view.
  if (!check) {
    console.log('')
    for (const [kind, { raw, gzip }] of await measureSite()) {
      console.log(`  ${`demo site (build:demo) ${kind}`.padEnd(48)} raw ${String(raw).padStart(7)} B   gzip     ${bytes(gzip)}`)
    }
  }
  if (failures.length) console.log(`\n${failures.map((f) => `✗ ${f}`).join('\n')}`)
  if (failures.length && check) process.exit(1)
}
