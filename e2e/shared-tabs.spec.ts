// Issue 17: one connection for every tab. Eight tabs on one embedded server over HTTP/1.1, with the client
// shared through a SharedWorker and, for comparison, with one client per tab (the seventh tab stalls there).
import { writeFileSync, mkdirSync } from 'node:fs'
import { expect, test } from './helpers'
import { budget, latencies, live, openTabs, scope, startHarness, type Harness, type McpWindow } from './shared-tabs/harness'

// Eight renderers on a loaded two-core machine: generous, since every wait inside is bounded on its own.
test.describe.configure({ mode: 'serial', timeout: 300_000 })

let h: Harness
const figures: Record<string, unknown> = {}

test.beforeAll(async () => {
  h = await startHarness()
})
test.afterAll(async () => {
  mkdirSync('test-results', { recursive: true })
  writeFileSync('test-results/shared-tabs-figures.json', JSON.stringify(figures, null, 2))
  console.log('shared-tabs figures', JSON.stringify(figures, null, 2))
  await h?.close()
})

test('eight tabs share one worker: one listen stream, one load of each list, changes everywhere within a second', async ({ browser }) => {
  const server = scope(h, 'eight-on')
  await server.control('reset')
  h.counter.reset()
  const { context, pages, errors } = await openTabs(browser, h, server.url, 'worker', 8)
  await Promise.all(pages.map((page) => live(page)))
  for (const page of pages) await expect(page.locator('#mode')).toHaveText('worker')

  const loaded = await server.stats()
  expect(loaded['subscriptions/listen']).toBe(1)
  for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) expect(loaded[method], method).toBe(1)

  const first = await latencies(pages, server)
  expect(Math.max(...first)).toBeLessThan(budget())
  // One reload serves every tab too.
  expect((await server.stats())['tools/list']).toBe(2)

  const echoes = await Promise.all(
    pages.map((page, i) => page.evaluate((text) => (window as unknown as McpWindow).mcp.callTool('echo', { text }), `tab ${i}`)),
  )
  expect(echoes.map((result) => (result.content as { text: string }[])[0]!.text)).toEqual(pages.map((_, i) => `tab ${i}`))
  figures.on = {
    tabs: 8,
    tcp: h.counter.stats(),
    listenRequests: loaded['subscriptions/listen'],
    listLoads: { tools: loaded['tools/list'], prompts: loaded['prompts/list'], resources: loaded['resources/list'], templates: loaded['resources/templates/list'] },
    discover: loaded['server/discover'] ?? 0,
    updateLatencyMs: first,
    budgetMs: budget(),
  }

  // Tabs close in no particular order; the others keep their atoms, their subscription and their calls.
  const order = [3, 0, 7, 5, 1, 6]
  const open = new Set(pages.keys())
  for (const index of order) {
    await pages[index]!.close()
    open.delete(index)
    const rest = [...open].map((i) => pages[i]!)
    const after = await latencies(rest, server)
    expect(Math.max(...after), `after closing tab ${index}`).toBeLessThan(budget())
    const text = await rest[0]!.evaluate(() => (window as unknown as McpWindow).mcp.callTool('echo', { text: 'still here' }))
    expect(JSON.stringify(text)).toContain('still here')
  }
  expect((await server.stats())['subscriptions/listen']).toBe(1)
  expect(h.counter.stats().listening).toBe(1)

  // The last tabs leave: the worker ends the server stream.
  for (const index of open) await pages[index]!.evaluate(() => (window as unknown as McpWindow).mcp.close())
  await expect.poll(() => h.counter.stats().listening, { timeout: 5000 }).toBe(0)
  expect(errors).toEqual([])
  await context.close()
})

test('eight tabs without sharing: one client each, the seventh tab stalls on HTTP/1.1', async ({ browser }) => {
  const server = scope(h, 'eight-off')
  await server.control('reset')
  h.counter.reset()
  const { context, pages, errors } = await openTabs(browser, h, server.url, 'off', 8)
  // Wait for whatever can get through: six connections, each held by one tab's listen stream.
  await expect.poll(async () => (await server.stats())['subscriptions/listen'] ?? 0, { timeout: 15_000 }).toBe(6)
  const acknowledged = await Promise.all(
    pages.map((page) =>
      expect(page.locator('#subscription'))
        .toHaveText('acknowledged', { timeout: 3000 })
        .then(() => true, () => false),
    ),
  )
  const stats = await server.stats()
  const delays = await latencies(pages, server, 3000)
  const stalled = delays.filter((delay) => delay === Infinity).length
  figures.off = {
    tabs: 8,
    tcp: h.counter.stats(),
    listenRequests: stats['subscriptions/listen'],
    listLoads: { tools: stats['tools/list'], prompts: stats['prompts/list'], resources: stats['resources/list'], templates: stats['resources/templates/list'] },
    discover: stats['server/discover'] ?? 0,
    acknowledgedTabs: acknowledged.filter(Boolean).length,
    updateLatencyMs: delays.map((delay) => (delay === Infinity ? 'stalled' : delay)),
  }
  expect(acknowledged.filter(Boolean).length).toBe(6)
  expect(stalled).toBeGreaterThanOrEqual(2)
  expect(h.counter.stats().peak).toBe(6)
  expect(errors).toEqual([])
  await context.close()
})
