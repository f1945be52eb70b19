// HTTP requests (counted by the server) until the first tools/list result. Every trial runs in a scope of its
// own (`/s/<name>/`), so nothing a previous trial taught a server or a client leaks into the next one.
import { loadNanomcp, loadOfficial, nanoClient, officialClient } from './clients.mjs'

let scopeCounter = 0
function freshScope(server, label) {
  const base = `${server.control}/s/bench-${label}-${process.pid}-${++scopeCounter}`
  return {
    url: `${base}/mcp`,
    async stats() {
      const res = await fetch(`${base}/control/stats`)
      if (!res.ok) throw new Error(`stats of ${base}: HTTP ${res.status}`)
      return res.json()
    },
    async reset() {
      const res = await fetch(`${base}/control/stats/reset`, { method: 'POST' })
      if (!res.ok) throw new Error(`stats reset of ${base}: HTTP ${res.status}`)
    },
  }
}

/** Requests the server had seen when `list()` resolved, with their methods in the order of the counts. */
async function count(scope, list) {
  const result = await list()
  const stats = await scope.stats()
  const tools = result?.tools
  if (!Array.isArray(tools) || tools.length === 0) throw new Error('tools/list returned no tools')
  return { requests: stats.requests, byMethod: stats.byMethod }
}

const nanoTrials = (nano) => ({
  first: async (server, scope) => {
    const client = nanoClient(nano, scope.url)
    try {
      return await count(scope, () => client.request('tools/list'))
    } finally {
      await client.close()
    }
  },
  // A second Client for the same URL in the same page: the era learnt by the first is remembered.
  remembered: async (server, scope) => {
    const first = nanoClient(nano, scope.url)
    await first.request('tools/list')
    await first.close()
    await scope.reset()
    const client = nanoClient(nano, scope.url)
    try {
      return await count(scope, () => client.request('tools/list'))
    } finally {
      await client.close()
    }
  },
})

const officialTrials = (official) => ({
  first: async (server, scope) => {
    let client
    try {
      return await count(scope, async () => {
        client = await officialClient(official, scope.url)
        return client.listTools()
      })
    } finally {
      await client?.close()
    }
  },
  // The official client remembers nothing by itself; it takes a verdict the app kept: connect({ prior }).
  remembered: async (server, scope) => {
    const first = await officialClient(official, scope.url)
    const discover = first.getDiscoverResult()
    await first.close()
    const prior = discover ? { kind: 'modern', discover } : { kind: 'legacy' }
    await scope.reset()
    let client
    try {
      return await count(scope, async () => {
        client = await officialClient(official, scope.url, { connect: { prior } })
        return client.listTools()
      })
    } finally {
      await client?.close()
    }
  },
})

export async function run({ servers, trials = 3 }) {
  const clients = { nanomcp: nanoTrials(await loadNanomcp()), official: officialTrials(await loadOfficial()) }
  const cases = [
    ['modern', 'modern', 'first'],
    ['modern, era remembered', 'modern', 'remembered'],
    ['legacy, first contact', 'legacy', 'first'],
    ['legacy, era remembered', 'legacy', 'remembered'],
  ]
  const rows = []
  for (const [label, kind, trial] of cases) {
    const row = { label, kind, trial }
    for (const [name, client] of Object.entries(clients)) {
      const samples = []
      for (let i = 0; i < trials; i++) samples.push(await client[trial](servers[kind], freshScope(servers[kind], kind)))
      row[name] = { requests: samples.map((s) => s.requests), byMethod: samples[0].byMethod }
    }
    rows.push(row)
  }
  return rows
}
