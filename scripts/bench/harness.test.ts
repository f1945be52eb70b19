import { describe, expect, it } from 'vitest'
import { interleave } from './interleave.mjs'
import { formatSummary, summarize } from './stats.mjs'
import { renderTable } from './table.mjs'

describe('summaries', () => {
  it('takes the median of odd and even counts and keeps the range', () => {
    expect(summarize([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, n: 3 })
    expect(summarize([4, 1, 2, 3]).median).toBe(2.5)
    expect(() => summarize([])).toThrow(/nothing/)
  })

  it('prints a range only when the samples disagree', () => {
    expect(formatSummary({ median: 1.04, min: 1.01, max: 1.09 })).toBe('1.04 (1.01–1.09)')
    expect(formatSummary({ median: 3, min: 3, max: 3 }, 0)).toBe('3')
  })
})

describe('interleave', () => {
  it('alternates contenders in blocks and rotates who starts each round', async () => {
    const order: string[] = []
    const op = (name: string) => async () => void order.push(name)
    const out = await interleave({ a: op('a'), b: op('b') }, { rounds: 2, perRound: 4, block: 2 })
    expect(order.join('')).toBe('aabbaabb' + 'bbaabbaa')
    expect(out.a.times).toHaveLength(8)
    expect(out.b.roundMedians).toHaveLength(2)
  })
})

describe('the table', () => {
  const ratio = (median: number) => ({ median, min: median, max: median, n: 1 })
  const overhead = (nano: number, official: number) => [{
    name: 'fixture',
    callsPerClient: 2000,
    rounds: 5,
    ratio: { nanomcp: ratio(nano), official: ratio(official) },
    ms: { raw: ratio(0.5), nanomcp: ratio(0.5 * nano), official: ratio(0.5 * official) },
  }]

  it('marks the overhead goal met only at ≤ 1.10 and below the official client', () => {
    const met = renderTable({ overhead: overhead(1.05, 1.4) }).markdown
    expect(met).toMatch(/÷ raw fetch, Node, fixture.*\| met \|/)
    const slower = renderTable({ overhead: overhead(1.05, 1.02) }).markdown
    expect(slower).toMatch(/÷ raw fetch, Node, fixture.*\*\*missed\*\*/)
    const over = renderTable({ overhead: overhead(1.2, 1.4) }).markdown
    expect(over).toMatch(/÷ raw fetch, Node, fixture.*\*\*missed\*\*/)
  })

  it('holds the bundle row to the size budget and the large lists to the raw fetch loop only', () => {
    const size = (client: string, gzip: number) => ({ client, label: 'Client', min: gzip * 3, gzip, lazy: { min: 0, gzip: 20 } })
    const within = renderTable({ 'bundle-size': [size('nanomcp', 24 * 1024), size('official', 80 * 1024)] }).markdown
    expect(within).toMatch(/Bundle, min\+gzip: Client \| 24\.0 KB \| 80\.0 KB \| ≤ 24\.5 KB \| met \|/)
    const over = renderTable({ 'bundle-size': [size('nanomcp', 25 * 1024), size('official', 80 * 1024)] }).markdown
    expect(over).toMatch(/≤ 24\.5 KB \| \*\*missed\*\*/)
    const ms = (median: number) => ({ median, min: median, max: median, n: 1 })
    const lists = renderTable({
      'large-lists': {
        tools: 10_000,
        reps: 15,
        ms: { 'nanomcp request loop': ms(150), 'nanomcp createMcp $tools': ms(160), 'official listTools()': ms(200), 'raw fetch loop': ms(140) },
        ratio: { loop: ms(1.07), store: ms(1.14) },
      },
    }).markdown
    expect(lists).not.toMatch(/≥ 2×/)
    expect(lists).toMatch(/createMcp \$tools vs listTools\(\) \| 160 — 1\.3× faster \| 200 \|  \|  \|/)
    expect(lists).toMatch(/request loop \| 1\.07 \| — \| ≤ 1\.2 \| met \|/)
  })

  it('holds the stream to the raw read, and shows the bare parse loop beside it without a goal', () => {
    const client = (mbps: number) => ({ mbps: ratio(mbps), retainedKB: 10, duringKB: -5 })
    const streams = (nanomcp: number) => ({
      count: 100_000,
      reps: 3,
      clients: { 'raw fetch (bytes only)': client(200), 'bare parse loop': client(150), nanomcp: client(nanomcp), official: client(4) },
    })
    const slow = renderTable({ streams: streams(148) }).markdown
    expect(slow).toMatch(/raw read: 200\) \| 148\.0 \| 4\.0 \| ≥ 0\.8× the raw read \| \*\*missed\*\* \|/)
    expect(slow).toMatch(/bare parse loop, no client .*: 150, 0\.75× the raw read \| 0\.99× the bare loop \| 0\.03× the bare loop \|  \|  \|/)
    expect(renderTable({ streams: streams(160) }).markdown).toMatch(/≥ 0\.8× the raw read \| met \|/)
  })

  it('reports a failed part instead of a row', () => {
    const { markdown, failures } = renderTable({ streams: { error: 'boom' } })
    expect(markdown).not.toMatch(/SSE/)
    expect(failures).toEqual(['streams: boom'])
  })
})
