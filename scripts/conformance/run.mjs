// `npm run conformance`: the official MCP conformance suite against nanomcp (the built library), both legs:
//   default  `--suite all`                            (2025-11-25 scenarios plus the draft-only ones at 2026-07-28)
//   2026     `--suite all --spec-version 2026-07-28`
// Prints passed/failed check counts per scenario next to the official client's (anchor.json) and exits non-zero when
// a scenario outside expected-failures.yml fails, or a listed one passes (stale baseline).
// Options: --leg default|2026 (repeatable; default both), --scenario <name> (repeatable), --adapter nanomcp|official,
// --timeout <ms> (per client process; default 60000), --out <dir> (default .conformance/<timestamp>).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { adapterOutcome, judge, parseExpectedFailures, readResults } from './evaluate.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '../..')
const suiteCli = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js')
const legs = new Map([
  ['default', []],
  ['2026', ['--spec-version', '2026-07-28']],
])

const { values: opts } = parseArgs({
  options: {
    leg: { type: 'string', multiple: true },
    scenario: { type: 'string', multiple: true },
    adapter: { type: 'string', default: 'nanomcp' },
    timeout: { type: 'string', default: '60000' },
    out: { type: 'string' },
  },
})
const chosenLegs = opts.leg ?? [...legs.keys()]
for (const leg of chosenLegs) if (!legs.has(leg)) fail(`unknown leg ${leg} (default, 2026)`)
const adapterFile = { nanomcp: 'adapter.mjs', official: 'official-adapter.mjs' }[opts.adapter]
if (!adapterFile) fail(`unknown adapter ${opts.adapter} (nanomcp, official)`)

const anchor = JSON.parse(readFileSync(join(here, 'anchor.json'), 'utf8'))
const expected = opts.adapter === 'nanomcp' ? parseExpectedFailures(readFileSync(join(here, 'expected-failures.yml'), 'utf8')) : []
const outRoot = resolve(opts.out ?? join(root, '.conformance', new Date().toISOString().replace(/[:.]/g, '-')))

if (opts.adapter === 'nanomcp') await buildIfStale()

let exitCode = 0
const summary = []
for (const leg of chosenLegs) {
  const out = join(outRoot, leg)
  mkdirSync(out, { recursive: true })
  const command = `node ${relative(root, join(here, adapterFile))}`
  const runs = opts.scenario ? opts.scenario.map((s) => ['--scenario', s]) : [['--suite', 'all']]
  const started = performance.now()
  let log = ''
  for (const selection of runs) {
    const args = ['client', '--command', command, ...selection, ...legs.get(leg), '--timeout', opts.timeout, '-o', out]
    console.log(`[${leg}] conformance ${args.join(' ')}`)
    log += await run(process.execPath, ['--import', join(here, 'node20-register.mjs'), suiteCli, ...args])
  }
  const seconds = (performance.now() - started) / 1000
  writeFileSync(join(out, 'suite.log'), log)
  exitCode |= report(leg, out, seconds, log)
}
console.log(`\nresults: ${relative(process.cwd(), outRoot)}`)
for (const line of summary) console.log(line)
process.exit(exitCode)

function report(leg, out, seconds, log) {
  const results = readResults(out)
  const anchored = Object.entries(anchor.scenarios).filter(([, counts]) => counts[leg] != null).map(([name]) => name)
  const skipped = new Set([...log.matchAll(/SKIPPED: scenario '([^']+)' is not applicable/g)].map((m) => m[1]))
  for (const name of skipped) console.log(`- ${name}: not part of leg ${leg}`)
  const names = (opts.scenario ?? [...new Set([...anchored, ...results.keys()])]).filter((name) => !skipped.has(name))
  if (names.length === 0) return 0
  const verdicts = names.map((name) => ({ ...judge(name, results.get(name), anchor.scenarios[name]?.[leg], expected), result: results.get(name) }))
  const width = Math.max(...names.map((n) => n.length))
  const mark = { pass: '✓', fail: '✗', expected: '~', stale: '!' }
  console.log(`\n== leg ${leg}: ${names.length} scenarios, ${seconds.toFixed(1)} s ==`)
  console.log(`  ${'scenario'.padEnd(width)}  passed failed warn anchor`)
  for (const v of verdicts) {
    const cols = [v.passed, v.failed, v.warnings, v.anchor ?? '-'].map((n) => String(n).padStart(6)).join(' ')
    console.log(`${mark[v.verdict]} ${v.scenario.padEnd(width)} ${cols}  ${v.verdict}`)
    if (v.verdict === 'fail' || v.verdict === 'stale') {
      for (const reason of v.reasons) console.log(`      ${reason}`)
      console.log(`      adapter: ${adapterOutcome(v.result)}`)
    }
  }
  const sum = (key, list = verdicts) => list.reduce((n, v) => n + (v[key] ?? 0), 0)
  const by = (verdict) => verdicts.filter((v) => v.verdict === verdict)
  const inScope = verdicts.filter((v) => v.verdict !== 'expected')
  const line =
    `leg ${leg}: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('warnings')} warnings over ${names.length} scenarios ` +
    `(${seconds.toFixed(1)} s) | verdicts: ${by('pass').length} pass, ${by('fail').length} fail, ${by('expected').length} expected, ` +
    `${by('stale').length} stale | outside the baseline: ${sum('passed', inScope)}/${sum('anchor', inScope)} anchor checks`
  console.log(line)
  summary.push(line)
  return by('fail').length + by('stale').length > 0 ? 1 : 0
}

function run(cmd, args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('error', reject)
    // The suite's exit code mixes in auth and out-of-scope scenarios; the verdict comes from checks.json instead.
    child.on('close', () => resolvePromise(output))
  })
}

async function buildIfStale() {
  const dist = join(root, 'dist/index.js')
  const newest = (dir) =>
    readdirSync(dir, { withFileTypes: true }).reduce((max, e) => {
      const path = join(dir, e.name)
      return Math.max(max, e.isDirectory() ? newest(path) : statSync(path).mtimeMs)
    }, 0)
  if (existsSync(dist) && statSync(dist).mtimeMs >= newest(join(root, 'src'))) return
  console.log('dist/ is missing or older than src/: npm run build')
  const code = await new Promise((resolvePromise) =>
    spawn('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' }).on('close', resolvePromise),
  )
  if (code !== 0) fail(`npm run build exited with ${code}`)
}

function fail(message) {
  console.error(`conformance: ${message}`)
  process.exit(2)
}
