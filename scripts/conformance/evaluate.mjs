// Scores a conformance run from the files the suite writes with `-o`: DIR/<scenario>-<timestamp>/checks.json
// (auth scenarios one level down, DIR/auth/...). The suite's own ✓ means "no FAILURE or WARNING", so a scenario where
// nothing was checked passes there; here a scenario passes only with SUCCESS checks, none failing, and at least as
// many passing checks as the anchor (the official client's count).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

const stamp = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/

/** The `client:` entries of an expected-failures file (the suite's format: '<scenario>' or '<scenario>:<check-id>'). */
export function parseExpectedFailures(text) {
  const entries = []
  let section
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').replace(/^#.*$/, '')
    if (!line.trim()) continue
    const key = /^(\w+):\s*$/.exec(line)
    if (key) {
      section = key[1]
      continue
    }
    const item = /^\s+-\s+['"]?([^'"]+?)['"]?\s*$/.exec(line)
    if (!item || !section) throw new Error(`expected-failures: cannot read line ${JSON.stringify(raw)}`)
    // YAML reads `- a: b` as a map, which the suite rejects too.
    if (/: /.test(item[1]) && !/^\s+-\s+['"]/.test(line)) throw new Error(`expected-failures: ${JSON.stringify(raw)}: '<scenario>:<check-id>' takes no space after the colon`)
    if (section !== 'client') continue
    const [scenario, checkId] = item[1].split(/:(.*)/s)
    entries.push(checkId ? { scenario, checkId } : { scenario })
  }
  return entries
}

/** Every scenario result under a `-o` directory: name → { checks, stdout, stderr, dir }. */
export function readResults(root) {
  const results = new Map()
  const walk = (dir) => {
    if (!existsSync(dir)) return
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue
      const path = join(dir, entry.name)
      if (!existsSync(join(path, 'checks.json'))) {
        walk(path)
        continue
      }
      const scenario = relative(root, path).split(sep).join('/').replace(stamp, '')
      const read = (file) => (existsSync(join(path, file)) ? readFileSync(join(path, file), 'utf8') : '')
      results.set(scenario, { checks: JSON.parse(read('checks.json')), stdout: read('stdout.txt'), stderr: read('stderr.txt'), dir: path })
    }
  }
  walk(root)
  return results
}

/** The adapter's own last word (scenarios.mjs prints one): ok, failed with the error, or nothing (killed). */
export function adapterOutcome(result) {
  const line = `${result?.stdout ?? ''}\n${result?.stderr ?? ''}`.split('\n').findLast((l) => l.startsWith('adapter: '))
  return line ? line.slice('adapter: '.length) : 'no outcome line (killed by the suite timeout, or crashed)'
}

/**
 * Verdict for one scenario: 'pass', 'fail', 'expected' (fails, and the baseline says so) or 'stale' (passes, but the
 * baseline still lists it). `anchor` is the official client's passing count, or null when it has none here.
 */
export function judge(scenario, result, anchor, expected) {
  const checks = result?.checks ?? []
  const count = (status) => checks.filter((c) => c.status === status).length
  const passed = count('SUCCESS')
  const failed = count('FAILURE')
  const warnings = count('WARNING')
  const failing = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
  const reasons = []
  if (!result) reasons.push('no result (scenario did not run or the suite crashed)')
  else if (passed === 0) reasons.push('no check passed')
  if (result && anchor != null && passed < anchor) reasons.push(`below anchor (${passed} < ${anchor})`)
  for (const c of failing) reasons.push(`${c.status} ${c.id}${c.name && c.name !== c.id ? ` (${c.name})` : ''}: ${c.errorMessage ?? c.description}`)

  const mine = expected.filter((e) => e.scenario === scenario)
  const whole = mine.some((e) => !e.checkId)
  const listedChecks = new Set(mine.filter((e) => e.checkId).map((e) => e.checkId))
  const fails = reasons.length > 0
  let verdict
  if (whole) verdict = fails ? 'expected' : 'stale'
  else if (listedChecks.size > 0) {
    const uncovered = failing.filter((c) => !listedChecks.has(c.id))
    const otherReasons = reasons.length - failing.length
    const nowPassing = [...listedChecks].filter((id) => checks.some((c) => c.id === id && c.status === 'SUCCESS'))
    verdict = nowPassing.length > 0 ? 'stale' : uncovered.length === 0 && otherReasons === 0 ? (fails ? 'expected' : 'stale') : 'fail'
  } else verdict = fails ? 'fail' : 'pass'
  return { scenario, passed, failed, warnings, anchor, verdict, reasons }
}
