// Per-request overhead in Node: a tools/call (echo) through each client next to a raw fetch of the same
// JSON-RPC POST (nanomcp's own bytes and headers, replayed), reported as the ratio of medians. Each target is a
// server in another process: the bench fixture, whose echo costs next to nothing (so the client's own cost
// shows), and the embedded modern server on the official server SDK (what a real server adds).
import { captureRequest, replayer } from './capture-request.mjs'
import { loadNanomcp, loadOfficial, nanoClient, officialClient } from './clients.mjs'
import { interleave } from './interleave.mjs'
import { summarize } from './stats.mjs'

const TEXT = 'overhead'
const ECHO = { name: 'echo', arguments: { text: TEXT } }

export function checked(call) {
  return async () => {
    const result = await call()
    if (result?.content?.[0]?.text !== TEXT) throw new Error(`echo answered ${JSON.stringify(result)}`)
  }
}

/** Ratio and time summaries from the per-round medians of `raw`, `nanomcp` and `official`. */
export function summarizeRounds(medians) {
  const ratio = (name, to = 'raw') => summarize(medians[name].map((m, i) => m / medians[to][i]))
  return {
    // Every figure is the median of the round medians, with their min–max: one slow round shows as a range.
    ms: Object.fromEntries(Object.entries(medians).map(([name, values]) => [name, summarize(values)])),
    ratio: {
      nanomcp: ratio('nanomcp'),
      official: ratio('official'),
      ...(medians['raw, same options'] && { sameOptions: ratio('nanomcp', 'raw, same options') }),
    },
  }
}

async function measure(nano, official, { url, calls, rounds, warmup, block = 20 }) {
  const nanomcp = nanoClient(nano, url)
  const officialC = await officialClient(official, url)
  const probe = nanoClient(nano, url)
  const wire = await captureRequest(() => probe.request('tools/call', ECHO))
  await probe.close()

  const contenders = {
    raw: checked(replayer(wire)),
    // The same bytes with nanomcp's own fetch options: in Node its redirect mode spares fetch a copy of each request
    // (http.ts), which the plain replay pays; this ratio is nanomcp's own work alone.
    'raw, same options': checked(replayer(wire, { same: true })),
    nanomcp: checked(() => nanomcp.request('tools/call', ECHO)),
    official: checked(() => officialC.callTool(ECHO)),
  }
  await interleave(contenders, { rounds: 1, perRound: warmup, block })
  const perRound = Math.ceil(calls / rounds)
  const timed = await interleave(contenders, { rounds, perRound, block })
  await Promise.all([nanomcp.close(), officialC.close()])
  const medians = Object.fromEntries(Object.entries(timed).map(([name, { roundMedians }]) => [name, roundMedians]))
  return { callsPerClient: perRound * rounds, rounds, headers: Object.keys(wire.headers).sort(), redirect: wire.redirect, signal: wire.signal, ...summarizeRounds(medians) }
}

/** `targets`: `[{ name, url, calls, rounds, warmup }]`; resolves with one result per target. */
export async function run({ targets }) {
  const nano = await loadNanomcp()
  const official = await loadOfficial()
  const out = []
  for (const target of targets) out.push({ name: target.name, ...(await measure(nano, official, target)) })
  return out
}
