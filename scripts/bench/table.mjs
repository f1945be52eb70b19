// Turns the parts' results into one table: each figure for nanomcp beside the same figure for the official
// client, with the goal it is held to and whether it was met. Markdown, so the README can take it as it is.
import { formatSummary } from './stats.mjs'

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
// Lazy chunks (loaded only when needed, e.g. nanomcp's HTTP+SSE fallback) are shown apart, never dropped.
const bundle = ({ gzip, lazy }) => (lazy?.min ? `${kb(gzip)} + ${kb(lazy.gzip)} on demand` : kb(gzip))
const verdict = (ok) => (ok === undefined ? '' : ok ? 'met' : '**missed**')
const requests = (list) => {
  const sorted = [...list].sort((a, b) => a - b)
  return sorted[0] === sorted.at(-1) ? String(sorted[0]) : `${sorted[sorted.length >> 1]} (${sorted[0]}–${sorted.at(-1)})`
}
const methods = (byMethod) => Object.entries(byMethod).map(([m, n]) => (n > 1 ? `${m} ×${n}` : m)).join(', ')

function sizeRows(rows) {
  const official = rows.find((r) => r.client === 'official')
  return rows
    .filter((r) => r.client === 'nanomcp')
    .map((r, i) => {
      const first = i === 0
      return [
        `Bundle, min+gzip: ${r.label}`,
        bundle(r),
        first ? bundle(official) : '—',
        first ? '≤ 24.5 KB' : '',
        first ? verdict(r.gzip <= 24.5 * 1024) : '',
      ]
    })
}

function roundTripRows(rows) {
  return rows.map((r) => {
    const goal = r.label === 'modern' ? '1' : ''
    const ok = r.label === 'modern' ? r.nanomcp.requests.every((n) => n === 1) : undefined
    const official = r.trial === 'remembered' ? `${requests(r.official.requests)} (connect({ prior }))` : requests(r.official.requests)
    return [`HTTP requests to the first tools/list: ${r.label}`, requests(r.nanomcp.requests), official, goal, verdict(ok)]
  })
}

function overheadRows(result, where) {
  const { nanomcp, official } = result.ratio
  const ok = nanomcp.median <= 1.1 && nanomcp.median < official.median
  return [
    [`tools/call time ÷ raw fetch, ${where} (${result.callsPerClient} calls each, ${result.rounds} rounds)`, formatSummary(nanomcp), formatSummary(official), '≤ 1.10 and below official', verdict(ok)],
    [`tools/call median, ${where}, ms (raw fetch: ${formatSummary(result.ms.raw, 3)})`, formatSummary(result.ms.nanomcp, 3), formatSummary(result.ms.official, 3), '', ''],
    ...(result.ratio.sameOptions
      ? [[`… same, ÷ raw fetch given nanomcp's fetch options (redirect '${result.redirect}'${result.signal ? ', a signal' : ''}: ${formatSummary(result.ms['raw, same options'], 3)} ms)`, formatSummary(result.ratio.sameOptions), '—', '', '']]
      : []),
  ]
}

function listRows(result) {
  const loop = result.ms['nanomcp request loop']
  const store = result.ms['nanomcp createMcp $tools']
  const official = result.ms['official listTools()']
  const raw = result.ms['raw fetch loop']
  const speedup = (x) => `${(official.median / x.median).toFixed(1)}× faster`
  return [
    [`${result.tools.toLocaleString('en')} tools over 100 pages, ms, fresh client to full list: request loop vs listTools() (raw fetch loop: ${formatSummary(raw, 0)})`, `${formatSummary(loop, 0)} — ${speedup(loop)}`, formatSummary(official, 0), '', ''],
    [`… same, ms: createMcp $tools vs listTools()`, `${formatSummary(store, 0)} — ${speedup(store)}`, formatSummary(official, 0), '', ''],
    // What the large lists are held to: time to the full list ÷ the raw fetch loop, paired rep by rep (large-lists.mjs),
    // which a client can approach; a ratio to another client's time says as much about that client.
    ...(result.ratio
      ? [
          [`… same, time ÷ raw fetch loop of the same rep (${result.reps} reps): request loop`, formatSummary(result.ratio.loop), '—', '≤ 1.2', verdict(result.ratio.loop.median <= 1.2)],
          [`… same, time ÷ raw fetch loop of the same rep: createMcp $tools`, formatSummary(result.ratio.store), '—', '≤ 1.3', verdict(result.ratio.store.median <= 1.3)],
        ]
      : []),
  ]
}

function streamRows(result) {
  const { nanomcp, official } = result.clients
  const raw = result.clients['raw fetch (bytes only)']
  const bare = result.clients['bare parse loop']
  const ratio = (a, b) => `${(a.mbps.median / b.mbps.median).toFixed(2)}×`
  const flat = (c) => c.retainedKB < 1024
  const heap = (c) => `${c.retainedKB.toFixed(0)} KB${c.duringKB === undefined ? '' : ` (${c.duringKB.toFixed(0)} KB while open)`}`
  return [
    [`SSE stream of ${result.count.toLocaleString('en')} progress notifications, MB/s (raw read: ${formatSummary(raw.mbps, 0)})`, formatSummary(nanomcp.mbps, 1), formatSummary(official.mbps, 1), '≥ 0.8× the raw read', verdict(nanomcp.mbps.median >= 0.8 * raw.mbps.median)],
    // No client can pass the floor of decoding and parsing each event: when it is itself below 0.8× the raw read,
    // so is every client, and the row above says more about the server's speed than about nanomcp's.
    ...(bare
      ? [[`… same, MB/s of a bare parse loop, no client (decode, split, JSON.parse each event): ${formatSummary(bare.mbps, 0)}, ${ratio(bare, raw)} the raw read`, `${ratio(nanomcp, bare)} the bare loop`, `${ratio(official, bare)} the bare loop`, '', '']]
      : []),
    [`Heap kept after those ${result.count.toLocaleString('en')} (growth from 25k to 100k while open)`, heap(nanomcp), heap(official), 'flat (< 1 MB)', verdict(flat(nanomcp))],
  ]
}

/** `results` maps a part name to its result or to `{ error }`. Returns `{ markdown, failures }`. */
export function renderTable(results) {
  const rows = []
  const failures = []
  const add = (name, render) => {
    const result = results[name]
    if (!result) return
    if (result.error) return void failures.push(`${name}: ${result.error}`)
    rows.push(...render(result))
  }
  add('bundle-size', sizeRows)
  add('round-trips', roundTripRows)
  add('overhead', (targets) => targets.flatMap((t) => overheadRows(t, `Node, ${t.name}`)))
  add('browser', (targets) => targets.flatMap((t) => overheadRows(t, `Chromium ${t.browser.split('.')[0]}, ${t.name}`)))
  add('large-lists', listRows)
  add('streams', streamRows)
  const lines = [
    '| Measure | nanomcp | @modelcontextprotocol/client 2.4.0 | Goal | |',
    '|---|---|---|---|---|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ]
  const notes = []
  const rt = results['round-trips']
  if (rt && !rt.error) {
    for (const r of rt) notes.push(`- ${r.label}: nanomcp ${methods(r.nanomcp.byMethod)}; official ${methods(r.official.byMethod)}`)
  }
  return { markdown: lines.join('\n'), notes, failures }
}
