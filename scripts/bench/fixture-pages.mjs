// The large catalogue: 10,000 tools served 100 to a page. Every page is serialized once, up front, so the
// fixture answers a page with a string copy and the timings measure the clients, not the server.
export const TOOL_COUNT = 10_000
export const PAGE_SIZE = 100

function tool(i) {
  const name = `tool_${String(i).padStart(5, '0')}`
  return {
    name,
    title: `Tool ${i}`,
    description: `Synthetic tool number ${i}, one of ${TOOL_COUNT}, for the pagination benchmark.`,
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look for' }, limit: { type: 'integer', minimum: 1 } },
      required: ['query'],
    },
    annotations: { readOnlyHint: true },
  }
}

/** `pages[i]` is the JSON of page i's result (modern era: `resultType` and cache hints included). */
export function buildPages(total = TOOL_COUNT, size = PAGE_SIZE) {
  const count = Math.ceil(total / size)
  return Array.from({ length: count }, (_, page) => {
    const tools = []
    for (let i = page * size; i < Math.min(total, (page + 1) * size); i++) tools.push(tool(i + 1))
    const next = page + 1 < count ? { nextCursor: `page-${page + 1}` } : {}
    return JSON.stringify({ resultType: 'complete', tools, ...next, ttlMs: 0, cacheScope: 'private' })
  })
}

/** The page index a cursor names, 0 without one; -1 when the cursor is not one this fixture issued. */
export function pageIndex(cursor, count) {
  if (cursor === undefined) return 0
  const match = typeof cursor === 'string' ? /^page-(\d+)$/.exec(cursor) : null
  const index = match ? Number(match[1]) : -1
  return index > 0 && index < count ? index : -1
}
