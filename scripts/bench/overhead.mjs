// Per-request overhead in Node: a tools/call (echo) through each client next to a raw fetch of the same
// JSON-RPC POST, against the embedded modern server (in another process). Reported as the ratio of medians.
import { captureRequest, replayer } from './capture-request.mjs'
import { loadNanomcp, loadOfficial, nanoClient, officialClient } from './clients.mjs'
import { interleave } from './interleave.mjs'
import { summarize } from './stats.mjs'

const TEXT = 'overhead'
const ECHO = { name: 'echo', arguments: { text: TEXT } }

function checked(call) {
  return async () => {
    const result = await call()
    if (result?.content?.[0]?.text !== TEXT) throw new Error(`echo answered ${JSON.stringify(result)}`)
  }
}

export async function run({ url, calls = 2000, rounds = 5, warmup = 200, block = 20 }) {
  const nano = await loadNanomcp()
  const official = await loadOfficial()
  const nanomcp = nanoClient(nano, url)
  await nanomcp.request('tools/list')
  const officialC = await officialClient(official, url)
  await officialC.listTools()
  const probe = nanoClient(nano, url)
  const wire = await captureRequest(() => probe.request('tools/call', ECHO))
  await probe.close()

  const contenders = {
    raw: checked(replayer(wire)),
    nanomcp: checked(() => nanomcp.request('tools/call', ECHO)),
    official: checked(() => officialC.callTool(ECHO)),
  }
  await interleave(contenders, { rounds: 1, perRound: warmup, block })
  const perRound = Math.ceil(calls / rounds)
  const timed = await interleave(contenders, { rounds, perRound, block })
  await Promise.all([nanomcp.close(), officialC.close()])

  const rawMedians = timed.raw.roundMedians
  const ratio = (name) => summarize(timed[name].roundMedians.map((m, i) => m / rawMedians[i]))
  return {
    callsPerClient: perRound * rounds,
    rounds,
    headers: Object.keys(wire.headers).sort(),
    // Every figure is the median of the round medians, with their min–max: one slow round shows as a range.
    ms: Object.fromEntries(Object.entries(timed).map(([name, { roundMedians }]) => [name, summarize(roundMedians)])),
    ratio: { nanomcp: ratio('nanomcp'), official: ratio('official') },
  }
}
