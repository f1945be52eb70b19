// Types for evaluate.mjs (plain .mjs so `node` runs it on Node 20; this lets the TypeScript test check its use).
export interface Check {
  id: string
  name?: string
  description?: string
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED'
  errorMessage?: string
}
export interface ScenarioResult {
  checks: Check[]
  stdout: string
  stderr: string
  dir: string
}
export interface ExpectedFailure {
  scenario: string
  checkId?: string
}
export interface Verdict {
  scenario: string
  passed: number
  failed: number
  warnings: number
  anchor: number | null | undefined
  verdict: 'pass' | 'fail' | 'expected' | 'stale'
  reasons: string[]
}
export function parseExpectedFailures(text: string): ExpectedFailure[]
export function readResults(root: string): Map<string, ScenarioResult>
export function adapterOutcome(result: Pick<ScenarioResult, 'stdout' | 'stderr'> | undefined): string
export function judge(
  scenario: string,
  result: Pick<ScenarioResult, 'checks'> | undefined,
  anchor: number | null | undefined,
  expected: ExpectedFailure[],
): Verdict
