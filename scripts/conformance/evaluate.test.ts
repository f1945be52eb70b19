import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { adapterOutcome, judge, parseExpectedFailures, readResults, type Check } from './evaluate.mjs'

const ok = (id: string): Check => ({ id, status: 'SUCCESS' })
const bad = (id: string): Check => ({ id, status: 'FAILURE', errorMessage: `${id} broke` })

describe('parseExpectedFailures', () => {
  it('reads the committed baseline: known scenarios only, whole ones, and none of those that now pass', () => {
    const entries = parseExpectedFailures(readFileSync(new URL('./expected-failures.yml', import.meta.url), 'utf8'))
    const anchor = JSON.parse(readFileSync(new URL('./anchor.json', import.meta.url), 'utf8')) as { scenarios: Record<string, unknown> }
    for (const entry of entries) expect(Object.keys(anchor.scenarios)).toContain(entry.scenario)
    expect(entries.every((e) => e.checkId === undefined)).toBe(true)
    // The machine-to-machine grants and the skills helpers pass these at the official counts (issue 16).
    const passing = ['auth/client-credentials-basic', 'auth/client-credentials-jwt', 'auth/wif-jwt-bearer', 'auth/enterprise-managed-authorization']
    passing.push(...['no-prefetch', 'verify-digest', 'verify-size', 'verify-frontmatter'].map((s) => `sep-2640-client-${s}`))
    expect(entries.map((e) => e.scenario).filter((name) => passing.includes(name))).toEqual([])
  })

  it('keeps only client entries and splits scenario:check-id at the first colon', () => {
    const text = 'server:\n  - tools-list\nclient:\n  # why\n  - sse-retry\n  - "http-custom-headers:sep-2243-client-omit-null"  # later\n'
    expect(parseExpectedFailures(text)).toEqual([{ scenario: 'sse-retry' }, { scenario: 'http-custom-headers', checkId: 'sep-2243-client-omit-null' }])
  })

  it('refuses a line it cannot read instead of silently dropping an entry', () => {
    expect(() => parseExpectedFailures('client:\n  - sse-retry: client-sse-last-event-id\n')).toThrow(/no space after the colon/)
    expect(() => parseExpectedFailures('client:\nsse-retry\n')).toThrow(/cannot read/)
  })
})

describe('judge', () => {
  it('does not count a scenario with zero checks as passed (the suite prints ✓ for it)', () => {
    expect(judge('initialize', { checks: [] }, 1, []).verdict).toBe('fail')
    expect(judge('sep-2640-client-no-prefetch', { checks: [{ id: 'x', status: 'SKIPPED' }] }, null, []).reasons).toContain('no check passed')
  })

  it('fails below the anchor even without a FAILURE check', () => {
    const v = judge('http-standard-headers', { checks: [ok('a'), ok('b')] }, 9, [])
    expect(v).toMatchObject({ passed: 2, failed: 0, verdict: 'fail' })
    expect(v.reasons).toEqual(['below anchor (2 < 9)'])
  })

  it('passes at or above the anchor; a WARNING fails like a FAILURE', () => {
    expect(judge('tools_call', { checks: [ok('a'), ok('b'), { id: 'i', status: 'INFO' }] }, 2, []).verdict).toBe('pass')
    expect(judge('sse-retry', { checks: [ok('a'), ok('b'), ok('c'), { id: 'w', status: 'WARNING' }] }, 3, []).verdict).toBe('fail')
  })

  it('a missing result is a failure', () => {
    expect(judge('tools_call', undefined, 2, []).reasons[0]).toMatch(/no result/)
  })

  it('scenario entries: failing is expected, passing is stale', () => {
    const baseline = [{ scenario: 'auth/dpop' }]
    expect(judge('auth/dpop', { checks: [bad('x')] }, 12, baseline).verdict).toBe('expected')
    expect(judge('auth/dpop', { checks: Array.from({ length: 12 }, (_, i) => ok(`c${i}`)) }, 12, baseline).verdict).toBe('stale')
  })

  it('check entries cover only the listed checks', () => {
    const baseline = [{ scenario: 's', checkId: 'x' }]
    expect(judge('s', { checks: [ok('a'), bad('x')] }, null, baseline).verdict).toBe('expected')
    expect(judge('s', { checks: [ok('a'), bad('x'), bad('y')] }, null, baseline).verdict).toBe('fail')
    expect(judge('s', { checks: [ok('a'), ok('x')] }, null, baseline).verdict).toBe('stale')
  })
})

describe('readResults and adapterOutcome', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-eval-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('finds scenario folders at the top and under auth/, named without the timestamp', () => {
    const put = (path: string, checks: Check[], stdout = '') => {
      mkdirSync(join(dir, path), { recursive: true })
      writeFileSync(join(dir, path, 'checks.json'), JSON.stringify(checks))
      writeFileSync(join(dir, path, 'stdout.txt'), stdout)
    }
    put('tools_call-2026-12-02T11-51-02-972Z', [ok('a')], '→ x\nadapter: ok tools_call 12 ms\n')
    put('auth/metadata-default-2026-12-02T11-51-03-000Z', [bad('b')])
    const results = readResults(dir)
    expect([...results.keys()].sort()).toEqual(['auth/metadata-default', 'tools_call'])
    expect(results.get('tools_call')?.checks).toEqual([ok('a')])
    expect(adapterOutcome(results.get('tools_call'))).toBe('ok tools_call 12 ms')
    expect(adapterOutcome(results.get('auth/metadata-default'))).toMatch(/no outcome line/)
  })

  it('an absent output directory reads as no results', () => {
    expect(readResults(join(dir, 'missing')).size).toBe(0)
  })
})
