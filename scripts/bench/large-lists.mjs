// Time to the complete list of 10,000 tools over 100 pages (the fixture server, in another process), from a
// fresh client: construction, era, every page, validation. Three ways: nanomcp's tools/list loop with cursors
// through client.request, nanomcp's createMcp $tools atom, and the official client's auto-aggregating listTools();
// a raw fetch loop gives the floor.
import { loadNanomcp, loadOfficial, nanoClient, officialClient } from './clients.mjs'
import { TOOL_COUNT } from './fixture-pages.mjs'
import { summarize } from './stats.mjs'

function expectAll(tools) {
  if (tools.length !== TOOL_COUNT) throw new Error(`got ${tools.length} tools, expected ${TOOL_COUNT}`)
  if (tools[TOOL_COUNT - 1].name !== `tool_${TOOL_COUNT}`) throw new Error(`last tool is ${tools[TOOL_COUNT - 1].name}`)
}

function contenders(nano, official, url) {
  return {
    // The floor: the same pages fetched and parsed with no client at all.
    'raw fetch loop': async () => {
      const tools = []
      let cursor
      let id = 0
      do {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/list', params: cursor === undefined ? {} : { cursor } }),
        })
        const { result } = await res.json()
        tools.push(...result.tools)
        cursor = result.nextCursor
      } while (cursor !== undefined)
      expectAll(tools)
    },
    'nanomcp request loop': async () => {
      const client = nanoClient(nano, url)
      const tools = []
      let cursor
      do {
        const page = await client.request('tools/list', cursor === undefined ? {} : { cursor })
        tools.push(...page.tools)
        cursor = page.nextCursor
      } while (cursor !== undefined)
      await client.close()
      expectAll(tools)
    },
    'nanomcp createMcp $tools': async () => {
      const mcp = nano.createMcp(url, { autoListen: false })
      let unbind
      try {
        const tools = await new Promise((resolve, reject) => {
          unbind = mcp.$tools.subscribe((state) => {
            if (state.error) reject(state.error)
            else if (!state.loading && state.items.length > 0) resolve(state.items)
          })
        })
        expectAll(tools)
      } finally {
        unbind?.()
        await mcp.close()
      }
    },
    'official listTools()': async () => {
      const client = await officialClient(official, url)
      const { tools } = await client.listTools()
      await client.close()
      expectAll(tools)
    },
  }
}

export async function run({ url, reps = 15 }) {
  const all = contenders(await loadNanomcp(), await loadOfficial(), url)
  const names = Object.keys(all)
  for (const name of names) await all[name]()
  const times = Object.fromEntries(names.map((name) => [name, []]))
  for (let rep = 0; rep < reps; rep++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + rep) % names.length]
      // Each starts on a clean heap: the garbage of 10,000 tools (several MB, the official client's copies most)
      // would otherwise be collected during whichever contender ran next, and that swung a rep's ratio by half.
      globalThis.gc?.()
      const start = performance.now()
      await all[name]()
      times[name].push(performance.now() - start)
    }
  }
  // Each nanomcp way ÷ the raw loop of the same rep: on a shared machine the raw loop's own time swings by half
  // between reps, and a ratio of two medians taken apart carries that swing; paired, it cancels.
  const raw = times['raw fetch loop']
  const paired = (name) => summarize(times[name].map((ms, rep) => ms / raw[rep]))
  const ratio = { loop: paired('nanomcp request loop'), store: paired('nanomcp createMcp $tools') }
  return { tools: TOOL_COUNT, reps, ms: Object.fromEntries(names.map((name) => [name, summarize(times[name])])), ratio }
}
