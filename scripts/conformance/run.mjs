// `npm run conformance`: the official MCP conformance suite against nanomcp (the built library), both legs:
//   default  `--suite all`                            (2025-11-25 scenarios plus the draft-only ones at 2026-07-28)
//   2026     `--suite all --spec-version 2026-07-28`
// Prints passed/failed check counts per scenario next to the official client's (anchor.json) and exits non-zero when
// a scenario outside expected-failures.yml fails, or a listed one passes (stale baseline).
// A scenario that fails in the parallel run is run once more alone: the suite serves every scenario from one
// process, and on a loaded machine its event loop stalls long enough for Node's 5 s keep-alive timeout to reset a
// connection that already carries the client's next POST (fetch never retries a POST). A pass on the rerun is
// reported as "flaky", never hidden.
// Options: --leg default|2026 (repeatable; default both), --scenario <name> (repeatable), --adapter nanomcp|official,
// --timeout <ms> (per client process; default 60000), --out <dir> (default scripts/conformance/out/<timestamp>), --no-rerun.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
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
    'no-rerun': { type: 'boolean', default: false },
  },
})
const chosenLegs = opts.leg ?? [...legs.keys()]
for (const leg of chosenLegs) if (!legs.has(leg)) fail(`unknown leg ${leg} (default, 2026)`)
const adapterFile = { nanomcp: 'adapter.mjs', official: 'official-adapter.mjs' }[opts.adapter]
if (!adapterFile) fail(`unknown adapter ${opts.adapter} (nanomcp, official)`)

const anchor = JSON.parse(readFileSync(join(here, 'anchor.json'), 'utf8'))
const expected = opts.adapter === 'nanomcp' ? parseExpectedFailures(readFileSync(join(here, 'expected-failures.yml'), 'utf8')) : []
const outRoot = resolve(opts.out ?? join(root, 'scripts', 'conformance', 'out', new Date().toISOString().replace(/[:.]/g, '-')))
const command = `node ${relative(root, join(here, adapterFile))}`

if (opts.adapter === 'nanomcp') await buildIfStale()

let exitCode = 0
const summary = []
const started = performance.now()
for (const leg of chosenLegs) {
  const out = join(outRoot, leg)
  const legStarted = performance.now()
  const loadBefore = loadavg()[0]
  const selections = opts.scenario ? opts.scenario.map((s) => ['--scenario', s]) : [['--suite', 'all']]
  let log = ''
  for (const selection of selections) log += await suite(leg, selection, out)
  writeFileSync(join(out, 'suite.log'), log)
  const seconds = (performance.now() - legStarted) / 1000
  // Wall time depends on what else runs on the machine: say how busy it was.
  const load = `load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)} on ${availableParallelism()} CPUs`

  const skipped = new Set([...log.matchAll(/SKIPPED: scenario '([^']+)' is not applicable/g)].map((m) => m[1]))
  let verdicts = judgeAll(leg, out, skipped)
  const failing = verdicts.filter((v) => v.verdict === 'fail').map((v) => v.scenario)
  const reruns = new Map()
  if (failing.length && !opts['no-rerun']) {
    const rerunOut = join(out, 'rerun')
    for (const scenario of failing) await suite(leg, ['--scenario', scenario], rerunOut)
    for (const v of judgeAll(leg, rerunOut, skipped, failing)) reruns.set(v.scenario, v)
  }
  verdicts = verdicts.map((v) => {
    const again = reruns.get(v.scenario)
    return again ? { ...again, first: v, verdict: again.verdict === 'pass' ? 'flaky' : again.verdict } : v
  })
  exitCode |= report(leg, verdicts, skipped, seconds, load)
}
console.log(`\nresults: ${relative(process.cwd(), outRoot)}   total wall time ${((performance.now() - started) / 1000).toFixed(1)} s`)
for (const line of summary) console.log(line)
process.exit(exitCode)

/** One suite invocation; resolves with its output (its exit code mixes in out-of-scope scenarios: unused). */
function suite(leg, selection, out) {
  mkdirSync(out, { recursive: true })
  const args = ['client', '--command', command, ...selection, ...legs.get(leg), '--timeout', opts.timeout, '-o', out]
  console.log(`[${leg}] conformance ${args.join(' ')}`)
  // The suite passes its environment on to the adapters: they pace their requests to end before its kill.
  const env = { ...process.env, CONFORMANCE_CLIENT_TIMEOUT_MS: opts.timeout }
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', join(here, 'node20-register.mjs'), suiteCli, ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('error', reject)
    child.on('close', () => resolvePromise(output))
  })
}

function judgeAll(leg, out, skipped, only) {
  const results = readResults(out)
  const anchored = Object.entries(anchor.scenarios).filter(([, counts]) => counts[leg] != null).map(([name]) => name)
  const names = only ?? (opts.scenario ?? [...new Set([...anchored, ...results.keys()])]).filter((name) => !skipped.has(name))
  return names.map((name) => ({ ...judge(name, results.get(name), anchor.scenarios[name]?.[leg], expected), result: results.get(name) }))
}

function report(leg, verdicts, skipped, seconds, load) {
  for (const name of skipped) console.log(`- ${name}: not part of leg ${leg}`)
  if (verdicts.length === 0) return 0
  const width = Math.max(...verdicts.map((v) => v.scenario.length))
  const mark = { pass: '✓', flaky: '✓', fail: '✗', expected: '~', stale: '!' }
  console.log(`\n== leg ${leg}: ${verdicts.length} scenarios, ${seconds.toFixed(1)} s, ${load} ==`)
  console.log(`  ${'scenario'.padEnd(width)}  passed failed warn anchor`)
  for (const v of verdicts) {
    const cols = [v.passed, v.failed, v.warnings, v.anchor ?? '-'].map((n) => String(n).padStart(6)).join(' ')
    console.log(`${mark[v.verdict]} ${v.scenario.padEnd(width)} ${cols}  ${v.verdict}`)
    if (v.first) {
      console.log(`      in the parallel run: ${v.first.passed} checks passed and ${v.first.failed} failed; adapter: ${adapterOutcome(v.first.result)}`)
    }
    if (v.verdict === 'fail' || v.verdict === 'stale') {
      for (const reason of v.reasons) console.log(`      ${reason}`)
      console.log(`      adapter: ${adapterOutcome(v.result)}`)
    }
  }
  const sum = (key, list = verdicts) => list.reduce((n, v) => n + (v[key] ?? 0), 0)
  const by = (verdict) => verdicts.filter((v) => v.verdict === verdict)
  const inScope = verdicts.filter((v) => v.verdict !== 'expected')
  const line =
    `leg ${leg}: ${sum('passed')} checks passed and ${sum('failed')} failed, ${sum('warnings')} warnings over ${verdicts.length} scenarios ` +
    `(${seconds.toFixed(1)} s, ${load}) | ${by('pass').length} pass, ${by('flaky').length} flaky, ${by('fail').length} fail, ` +
    `${by('expected').length} expected, ${by('stale').length} stale | outside the baseline: ` +
    `${sum('passed', inScope)}/${sum('anchor', inScope)} anchor checks`
  console.log(line)
  summary.push(line)
  return by('fail').length + by('stale').length > 0 ? 1 : 0
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
  const buildStarted = Date.now()
  let output = ''
  const code = await new Promise((resolvePromise) => {
    const child = spawn('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('close', resolvePromise)
  })
  if (code === 0) return
  // The adapter runs dist/*.js only: a failing declaration step (tsc) is reported but does not stop the run.
  const jsBuilt = existsSync(dist) && statSync(dist).mtimeMs >= buildStarted - 1000
  console.log(output.split('\n').filter((line) => /error|✓ built/.test(line)).join('\n'))
  if (!jsBuilt) fail(`npm run build exited with ${code}`)
  console.log(`WARNING: npm run build exited with ${code} after the JS build succeeded; running on dist/*.js`)
}

function fail(message) {
  console.error(`conformance: ${message}`)
  process.exit(2)
}
