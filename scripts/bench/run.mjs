#!/usr/bin/env node
// `npm run bench`: nanomcp beside @modelcontextprotocol/client 2.4.0, measured in one run against the same local
// servers. Prints one table (Markdown) and writes it, with the raw results, to scripts/bench/out/.
//   --quick         smaller counts, for checking the harness (figures not comparable)
//   --only a,b      run only these parts (bundle-size, round-trips, overhead, browser, large-lists, streams)
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { ensureDist } from './build-dist.mjs'
import { runPart, startChild } from './child.mjs'
import { renderTable } from './table.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const here = (file) => fileURLToPath(new URL(file, import.meta.url))
const args = process.argv.slice(2)
const quick = args.includes('--quick')
const onlyAt = args.indexOf('--only')
const only = onlyAt === -1 ? undefined : new Set((args[onlyAt + 1] ?? '').split(','))
const wanted = (part) => !only || only.has(part)
process.chdir(root)

const log = (message) => console.error(`› ${message}`)
const started = performance.now()
// Other work on the machine shows in every figure: the load average before and after goes with the table.
const loadBefore = os.loadavg()[0]
if (ensureDist(root)) log('built dist/ (it was missing or older than src/)')

const { value: servers, stop: stopServers } = await startChild(here('./servers-child.mjs'))
const { value: fixture, stop: stopFixture } = await startChild(here('./fixture-server.mjs'))
const results = {}
// Overhead targets: the fixture's echo costs next to nothing, so each client's own cost shows; the embedded
// modern server (official server SDK, a new McpServer per request) shows what a real server adds. That server
// takes several ms per request, and Chromium adds its own per-fetch floor, so those get fewer calls: the whole
// run stays near three minutes even on a busy machine.
const counts = (calls, rounds, warmup) => (quick ? { calls: Math.ceil(calls / 8), rounds: 3, warmup: Math.ceil(warmup / 8) } : { calls, rounds, warmup })
const targets = (fixtureCalls, embeddedCalls) => [
  { name: 'fixture server', url: fixture.url, ...counts(fixtureCalls, 5, 200) },
  { name: 'embedded modern server', url: servers.modern.url, ...counts(embeddedCalls, 5, 30) },
]
const plan = [
  ['bundle-size', {}],
  ['round-trips', { servers, trials: quick ? 1 : 3 }],
  ['overhead', { targets: targets(2000, 300) }],
  ['browser', { targets: targets(1000, 200) }],
  ['large-lists', { url: fixture.url, reps: quick ? 1 : 15 }],
  ['streams', { url: fixture.url, count: quick ? 20_000 : 100_000, reps: quick ? 1 : 3 }],
]
try {
  for (const [part, input] of plan) {
    if (!wanted(part)) continue
    const t = performance.now()
    log(`${part}…`)
    try {
      results[part] = await runPart(here('./part.mjs'), part, input, { nodeArgs: ['--expose-gc'], timeoutMs: 240_000 })
    } catch (error) {
      results[part] = { error: error.message }
    }
    log(`${part} took ${((performance.now() - t) / 1000).toFixed(1)} s`)
  }
} finally {
  await Promise.all([stopServers(), stopFixture()])
}

const { markdown, notes, failures } = renderTable(results)
const cpu = os.cpus()
const header = `nanomcp vs @modelcontextprotocol/client 2.4.0 — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.versions.node}, ${cpu.length} × ${cpu[0]?.model.trim()}, load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}${quick ? ' (--quick: not comparable)' : ''}`
const footer = [
  'Medians, with min–max over rounds/repetitions in parentheses. 1 KB = 1024 B. Servers run in their own processes on loopback.',
  ...(notes.length ? ['Requests seen by the server before the first tools/list result:', ...notes] : []),
]
const text = [header, '', markdown, '', ...footer].join('\n')
console.log(`\n${text}`)
for (const failure of failures) console.error(`✗ ${failure}`)
mkdirSync('scripts/bench/out', { recursive: true })
writeFileSync('scripts/bench/out/results.json', JSON.stringify({ at: new Date().toISOString(), quick, results }, null, 2))
writeFileSync('scripts/bench/out/table.md', `${text}\n`)
log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s; scripts/bench/out/table.md and results.json written`)
process.exit(failures.length ? 1 : 0)
