// One request whose SSE response carries 100,000 notifications/progress before its result (the fixture server,
// in another process): throughput of each client's stream parsing, and the heap it keeps. Needs --expose-gc.
import { loadNanomcp, loadOfficial, nanoClient, officialClient } from './clients.mjs'
import { summarize } from './stats.mjs'

const SAMPLE_EVERY = 25_000

function flooders(nano, nanomcp, official) {
  const args = (count) => ({ name: 'flood', arguments: { count } })
  // The flood request as a client without a library sends it.
  const flood = (url, count) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...args(count), _meta: { progressToken: 1 } } }),
    })
  return {
    // The ceiling: the same bytes read off the socket with no parsing at all.
    'raw fetch (bytes only)': async (url, count, onEach) => {
      const res = await flood(url, count)
      let bytes = 0
      for await (const chunk of res.body) bytes += chunk.length
      onEach?.(count)
      return bytes
    },
    // The floor for any client that reads each event: decode, split at blank lines, JSON.parse the data, nothing
    // checked or dispatched. The fixture writes ASCII only, so each chunk is decoded on its own.
    'bare parse loop': async (url, count, onEach) => {
      const res = await flood(url, count)
      const text = new TextDecoder()
      let bytes = 0
      let rest = ''
      let progress = 0
      for await (const chunk of res.body) {
        bytes += chunk.length
        const all = rest + text.decode(chunk)
        let start = 0
        for (let end = all.indexOf('\n\n'); end !== -1; end = all.indexOf('\n\n', start)) {
          if (JSON.parse(all.slice(start + 'data: '.length, end)).method) progress++
          start = end + 2
        }
        rest = all.slice(start)
      }
      if (progress !== count) throw new Error(`the bare parse loop read ${progress} of ${count} progress notifications`)
      onEach?.(count)
      return bytes
    },
    nanomcp: async (url, count, onEach) => {
      let n = 0
      const tick = onEach ?? (() => {})
      const result = await nanomcp.request('tools/call', args(count), { timeout: 300_000, onProgress: () => tick(++n) })
      if (n !== count) throw new Error(`nanomcp delivered ${n} of ${count} progress notifications`)
      return result.structuredContent.bytes
    },
    official: async (url, count, onEach) => {
      let n = 0
      const tick = onEach ?? (() => {})
      const result = await official.callTool(args(count), { timeout: 300_000, onprogress: () => tick(++n) })
      if (n !== count) throw new Error(`the official client delivered ${n} of ${count} progress notifications`)
      return result.structuredContent.bytes
    },
  }
}

const heap = () => {
  globalThis.gc()
  globalThis.gc()
  return process.memoryUsage().heapUsed
}

export async function run({ url, count = 100_000, reps = 3 }) {
  if (typeof globalThis.gc !== 'function') throw new Error('the streams part needs node --expose-gc')
  const nano = await loadNanomcp()
  const nanomcp = nanoClient(nano, url)
  const official = await officialClient(await loadOfficial(), url)
  const all = flooders(nano, nanomcp, official)
  const names = Object.keys(all)
  const mbps = Object.fromEntries(names.map((name) => [name, []]))
  for (const name of names) await all[name](url, 10_000)
  for (let rep = 0; rep < reps; rep++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + rep) % names.length]
      const start = performance.now()
      const bytes = await all[name](url, count)
      mbps[name].push(bytes / 1e6 / ((performance.now() - start) / 1000))
    }
  }
  const out = {}
  for (const name of names) {
    // A separate, untimed run for the heap: collected samples every 25,000 notifications and after the result.
    const before = heap()
    const during = []
    await all[name](url, count, (n) => n % SAMPLE_EVERY === 0 && during.push(heap()))
    const after = heap()
    out[name] = {
      mbps: summarize(mbps[name]),
      retainedKB: (after - before) / 1024,
      // Growth of the live heap from the first sample to the last, while the stream is still open.
      duringKB: during.length > 1 ? (during.at(-1) - during[0]) / 1024 : undefined,
    }
  }
  await Promise.all([nanomcp.close(), official.close()])
  return { count, reps, clients: out }
}
