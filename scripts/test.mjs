#!/usr/bin/env node
// `npm test`: installs what is missing, then typecheck → lint → unit tests (Node) → browser tests (Chromium)
// → end-to-end tests (Playwright) → size budget → the official conformance suite. Every step runs even when an earlier one failed, so one run
// shows everything; the last line sums the tests of every runner as `N passed, N failed`.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: 'inherit', ...opts }).status ?? 1

function ensureChromium() {
  if (existsSync(chromium)) return
  if (process.env.CHROMIUM_PATH) fail(`CHROMIUM_PATH=${chromium} does not exist`)
  if (process.getuid?.() !== 0) fail(`Chromium is missing at ${chromium}; install Debian's package as root: apt-get install chromium`)
  console.log('› installing Debian chromium (apt-get)')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  if (run('apt-get', ['update'], { env }) !== 0 || run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env }) !== 0 || !existsSync(chromium)) {
    fail('Could not install chromium with apt-get; install it by hand or set CHROMIUM_PATH')
  }
}

export function ensureModules() {
  const marker = 'node_modules/.package-lock.json'
  const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs
  if (!stale) return
  console.log('› node_modules missing or older than package-lock.json: npm ci')
  if (run('npm', ['ci', '--no-audit', '--no-fund']) !== 0) fail('npm ci failed')
}

function fail(message) {
  console.error(`✗ ${message}`)
  process.exit(1)
}

function counts(file, kind) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'))
    if (kind === 'vitest') return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests }
    const s = report.stats
    return { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped }
  } catch {
    return undefined
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureModules()
  ensureChromium()
  rmSync('test-results', { recursive: true, force: true })
  mkdirSync('test-results', { recursive: true })
  const bin = (name) => `node_modules/.bin/${name}`
  const steps = [
    ['typecheck', bin('tsc'), ['--noEmit', '-p', '.']],
    ['lint', bin('oxlint'), ['--deny-warnings', 'src', 'demo', 'e2e', 'scripts']],
    ['unit tests (Node)', bin('vitest'), ['run', '--project', 'node', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest-node.json'], 'test-results/vitest-node.json', 'vitest'],
    ['browser tests (Chromium)', bin('vitest'), ['run', '--project', 'browser', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest-browser.json'], 'test-results/vitest-browser.json', 'vitest'],
    ['end-to-end tests (Playwright)', bin('playwright'), ['test'], 'test-results/playwright.json', 'playwright'],
    ['size budget', 'node', ['scripts/size.mjs', '--check']],
    // What `npm pack` ships: built by prepare, linted by publint and @arethetypeswrong/cli.
    ['package (npm pack, publint, attw)', 'node', ['scripts/check-package.mjs']],
    // The official MCP conformance suite (about 30 s): its checks are scored by its own runner, not summed here.
    ['conformance (official suite)', 'node', ['scripts/conformance/run.mjs']],
  ]
  const total = { passed: 0, failed: 0, skipped: 0 }
  const failedSteps = []
  for (const [name, cmd, args, report, kind] of steps) {
    console.log(`\n━━ ${name}`)
    const started = Date.now()
    const status = run(cmd, args, { env: { ...process.env, CI: process.env.CI ?? 'true' } })
    const c = report ? counts(report, kind) : undefined
    if (c) for (const k of Object.keys(total)) total[k] += c[k] ?? 0
    // A runner that crashed before writing its report still counts as one failure.
    if (report && !c && status !== 0) total.failed += 1
    if (status !== 0) failedSteps.push(name)
    console.log(`━━ ${name}: ${status === 0 ? 'ok' : `FAILED (exit ${status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s${c ? ` — ${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}` : ''}`)
  }
  if (failedSteps.length) console.log(`\nFailed steps: ${failedSteps.join(', ')}`)
  console.log(`\n${total.passed} passed, ${total.failed + (failedSteps.length && !total.failed ? 1 : 0)} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`)
  process.exit(failedSteps.length ? 1 : 0)
}
