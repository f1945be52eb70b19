// Issue 17, the hard parts of shared tabs in Chromium: input requests, progress and cancellation through the
// worker; bad input in one tab leaving the others alone; the leader-tab fallback; a worker that dies.
import { expect, test } from './helpers'
import { budget, latencies, live, openTabs, scope, startHarness, type Harness, type McpWindow } from './shared-tabs/harness'

// Eight renderers on a loaded two-core machine: generous, since every wait inside is bounded on its own.
test.describe.configure({ mode: 'serial', timeout: 300_000 })

let h: Harness
test.beforeAll(async () => {
  h = await startHarness()
})
test.afterAll(async () => {
  await h?.close()
})

const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text

test('input requests go to the tab that made the call; progress and cancellation cross the worker', async ({ browser }) => {
  const server = scope(h, 'faults-input')
  await server.control('reset')
  const { context, pages, errors } = await openTabs(browser, h, server.url, 'worker', 2)
  await Promise.all(pages.map((page) => live(page)))

  // The same call from two tabs at once: each answer comes from its own tab's onInputRequest.
  const asked = await Promise.all(pages.map((page) => page.evaluate(() => (window as unknown as McpWindow).mcp.callTool('ask_name'))))
  expect(asked.map(text)).toEqual(['Hello, tab 0', 'Hello, tab 1'])

  const progress = await pages[0]!.evaluate(async () => {
    const seen: number[] = []
    await (window as unknown as McpWindow).mcp.callTool('slow_count', { steps: 3, delayMs: 20 }, { onProgress: (p: { progress: number }) => seen.push(p.progress) })
    return seen
  })
  expect(progress).toEqual([1, 2, 3])

  const cancelled = await pages[1]!.evaluate(async () => {
    const w = window as unknown as McpWindow
    const controller = new AbortController()
    const started = Date.now()
    setTimeout(() => controller.abort('enough'), 200)
    const error = await w.mcp.callTool('slow_count', { steps: 100, delayMs: 100 }, { signal: controller.signal }).then(() => undefined, w.errorOf)
    return { error, ms: Date.now() - started }
  })
  expect(cancelled.error?.name).toBe('AbortError')
  expect(cancelled.ms).toBeLessThan(5000)
  expect(text(await pages[1]!.evaluate(() => (window as unknown as McpWindow).mcp.callTool('echo', { text: 'after abort' })))).toBe('after abort')
  expect(errors).toEqual([])
  await context.close()
})

test('bad input stays in its tab: an uncloneable argument, a tab closed mid-call, a worker script that fails to load', async ({ browser }) => {
  const server = scope(h, 'faults-bad')
  await server.control('reset')
  const { context, pages, errors } = await openTabs(browser, h, server.url, 'worker', 3)
  await Promise.all(pages.map((page) => live(page)))

  const uncloneable = await pages[0]!.evaluate(() => {
    const w = window as unknown as McpWindow
    return w.mcp.callTool('echo', { text: () => 'a function' }).then(() => undefined, w.errorOf)
  })
  expect(uncloneable).toMatchObject({ name: 'SharedError', reason: 'not-cloneable', shared: true })
  expect(uncloneable?.message).toContain('DataCloneError')
  for (const page of pages) expect(text(await page.evaluate(() => (window as unknown as McpWindow).mcp.callTool('echo', { text: 'fine' })))).toBe('fine')

  // Tab 0 leaves in the middle of a long call: its call is cancelled, the others carry on.
  await pages[0]!.evaluate(() => void (window as unknown as McpWindow).mcp.callTool('slow_count', { steps: 100, delayMs: 100 }).catch(() => {}))
  await pages[0]!.close()
  const rest = pages.slice(1)
  expect(Math.max(...(await latencies(rest, server)))).toBeLessThan(budget())
  expect(text(await rest[0]!.evaluate(() => (window as unknown as McpWindow).mcp.callTool('echo', { text: 'still fine' })))).toBe('still fine')

  // A worker script that does not load (a 404 here; CSP and file:// fail the same way): this tab falls back to
  // a leader tab of its own and still works; the worker tabs never notice.
  const broken = await context.newPage()
  broken.on('pageerror', (error) => errors.push(`broken: ${error.message}`))
  await broken.goto(`${h.page}?server=${encodeURIComponent(server.url)}&mode=broken&tab=9`)
  await live(broken)
  await expect(broken.locator('#mode')).toHaveText('leader')
  const fallback = await broken.evaluate(() => {
    const w = window as unknown as McpWindow & { mcp: { $shared: { get(): { error?: unknown } } } }
    return w.errorOf(w.mcp.$shared.get().error)
  })
  expect(fallback).toMatchObject({ name: 'SharedError', reason: 'worker-failed' })
  expect(text(await broken.evaluate(() => (window as unknown as McpWindow).mcp.callTool('echo', { text: 'fallback' })))).toBe('fallback')
  for (const page of rest) await expect(page.locator('#mode')).toHaveText('worker')
  expect(errors).toEqual([])
  await context.close()
})

test('without SharedWorker a leader tab serves the others, and hands over when it closes', async ({ browser }) => {
  const server = scope(h, 'faults-leader')
  await server.control('reset')
  const { context, pages, errors } = await openTabs(browser, h, server.url, 'leader', 4)
  await Promise.all(pages.map((page) => live(page)))
  await expect(pages[0]!.locator('#mode')).toHaveText('leader')
  for (const page of pages.slice(1)) await expect(page.locator('#mode')).toHaveText('follower')
  const stats = await server.stats()
  expect(stats['subscriptions/listen']).toBe(1)
  expect(stats['tools/list']).toBe(1)
  expect(Math.max(...(await latencies(pages, server)))).toBeLessThan(budget())

  await pages[0]!.close()
  const rest = pages.slice(1)
  // The next tab in the Web Locks queue takes over; the others follow it.
  await expect.poll(async () => (await Promise.all(rest.map((page) => page.locator('#mode').textContent()))).sort().join(' '), { timeout: 15_000 }).toBe(
    'follower follower leader',
  )
  await Promise.all(rest.map((page) => live(page)))
  expect(Math.max(...(await latencies(rest, server)))).toBeLessThan(budget())
  expect(text(await rest[2]!.evaluate(() => (window as unknown as McpWindow).mcp.callTool('echo', { text: 'handed over' })))).toBe('handed over')
  expect(errors).toEqual([])
  await context.close()
})

test('a worker that dies is replaced: tabs reconnect and their atoms resume', async ({ browser }) => {
  const server = scope(h, 'faults-crash')
  await server.control('reset')
  const { context, pages, errors } = await openTabs(browser, h, server.url, 'worker', 3)
  await Promise.all(pages.map((page) => live(page)))

  expect((await server.stats())['subscriptions/listen']).toBe(1)
  const cdp = await browser.newBrowserCDPSession()
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] }
  const workers = targetInfos.filter((target) => target.type === 'shared_worker' && target.url.includes('worker'))
  expect(workers.length).toBeGreaterThan(0)
  for (const worker of workers) await cdp.send('Target.closeTarget', { targetId: worker.targetId })
  await cdp.detach()

  // A new worker, a new client: it listens again, once for all three tabs.
  await expect.poll(async () => (await server.stats())['subscriptions/listen'], { timeout: 15_000 }).toBe(2)
  for (const page of pages) await expect(page.locator('#mode')).toHaveText('worker', { timeout: 15_000 })
  await Promise.all(pages.map((page) => live(page)))
  expect(Math.max(...(await latencies(pages, server)))).toBeLessThan(budget())
  expect(text(await pages[2]!.evaluate(() => (window as unknown as McpWindow).mcp.callTool('echo', { text: 'new worker' })))).toBe('new worker')
  expect(errors).toEqual([])
  await context.close()
})
