// nanomcp/apps in real Chromium, on two origins: the host page (Vite, the library sources) embeds the shipped
// sandbox.html from another origin, against the official MCP Apps example servers from npm and views of our own
// built with the official guest `App` SDK.
import { expect, test, type FrameLocator, type Page } from '@playwright/test'
import { startHarness, type Harness } from './apps/harness'
import type { ShowOptions } from './apps/host'

let h: Harness
test.beforeAll(async () => {
  test.setTimeout(150_000)
  h = await startHarness()
})
test.afterAll(async () => h?.close())

const errors: string[] = []
test.beforeEach(async ({ page }) => {
  errors.length = 0
  page.on('pageerror', (error) => errors.push(error.message))
})
test.afterEach(() => expect(errors, 'errors thrown in the host page').toEqual([]))

/** The app's own frame: the inner frame of the sandbox frame. */
const app = (page: Page): FrameLocator => page.frameLocator('#app iframe').frameLocator('iframe')
const probe = (page: Page, key: string) => app(page).locator(`[data-k="${key}"]`)
const status = (page: Page) => page.evaluate(() => window.appState?.status)

async function show(page: Page, options: Partial<ShowOptions> & { tool: string }) {
  await page.goto(h.host)
  return page.evaluate((o) => window.show(o), { url: h.fixture.url, sandbox: h.sandbox, ...options })
}

async function ready(page: Page) {
  await expect(page.locator('#state')).toHaveText('ready', { timeout: 20_000 })
}

test.describe('official example servers', () => {
  const CASES = [
    { server: 'basic-vanillajs', tool: 'get-time', shows: (page: Page) => expect(app(page).locator('#server-time')).toHaveText(/\d{4}-\d\d-\d\dT/) },
    { server: 'basic-react', tool: 'get-time', shows: (page: Page) => expect(app(page).getByText(/\d{4}-\d\d-\d\dT/)).toBeVisible() },
    { server: 'system-monitor', tool: 'get-system-info', shows: (page: Page) => expect(app(page).locator('body')).toContainText(/linux/i) },
    { server: 'budget-allocator', tool: 'get-budget-data', shows: (page: Page) => expect(app(page).locator('body')).toContainText(/budget/i) },
  ]
  for (const { server, tool, shows } of CASES) {
    test(`${server}: ready under the strict default CSP, shows the tool's result, frame sized to the app`, async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 1000 })
      await show(page, { url: h.examples[server]!.url, tool })
      await ready(page)
      await shows(page)
      // The frame takes the height the app reported, and the app's document fits in it.
      await expect.poll(() => page.evaluate(() => window.appState?.size?.height ?? 0)).toBeGreaterThan(100)
      const reported = await page.evaluate(() => window.appState!.size!.height!)
      const frameHeight = await page.locator('#app iframe').evaluate((f) => f.getBoundingClientRect().height)
      expect(frameHeight).toBe(Math.ceil(reported))
      // No resize loop: the size settles (a loop would keep reporting, and the flood guard would end the view).
      const before = await page.evaluate(() => JSON.stringify(window.appState!.size))
      await page.waitForTimeout(1500)
      expect(await page.evaluate(() => JSON.stringify(window.appState!.size))).toBe(before)
      expect(await status(page)).toBe('ready')
      await page.screenshot({ path: `test-results/screenshots/apps-${server}.png` })
    })
  }

  test('basic-vanillajs: the app calls its tool through the host, and sends a message, a log and a link', async ({ page }) => {
    await show(page, { url: h.examples['basic-vanillajs']!.url, tool: 'get-time', kind: 'client' })
    await ready(page)
    const time = app(page).locator('#server-time')
    await expect(time).toHaveText(/\d{4}-/)
    const first = await time.textContent()
    await page.waitForTimeout(1100)
    await app(page).getByRole('button', { name: 'Get Server Time' }).click()
    await expect(time).not.toHaveText(first!)
    await expect(time).toHaveText(/\d{4}-/)
    await app(page).getByRole('button', { name: 'Send Message' }).click()
    await app(page).getByRole('button', { name: 'Send Log' }).click()
    await app(page).getByRole('button', { name: 'Open Link' }).click()
    await expect.poll(() => page.evaluate(() => window.hostLog.map(([kind]) => kind))).toEqual(['message', 'log', 'open-link'])
    const log = await page.evaluate(() => window.hostLog)
    expect(log[0]![1]).toEqual({ role: 'user', content: [{ type: 'text', text: 'This is message text.' }] })
    expect(log[2]![1]).toBe('https://modelcontextprotocol.io/')
  })

  test('system-monitor: the app polls its app-only tool through the host', async ({ page }) => {
    const { modelTools, appTools } = await show(page, { url: h.examples['system-monitor']!.url, tool: 'get-system-info' })
    expect(appTools).toContain('poll-system-stats')
    // The agent's view of the tools leaves the app-only one out.
    expect(modelTools).not.toContain('poll-system-stats')
    await ready(page)
    await expect(app(page).locator('body')).toContainText(/%/, { timeout: 15_000 })
  })
})

test.describe('our own views (official guest App SDK)', () => {
  test('ready; input then result, nothing before initialized; calls from the app: app-only reaches the server, model-only never does', async ({ page }) => {
    const calls = { ...h.fixture.calls }
    const { modelTools, appTools } = await show(page, { tool: 'fixture' })
    expect(appTools).toEqual(expect.arrayContaining(['app-only', 'model-only', 'fixture']))
    expect(modelTools).toContain('model-only')
    expect(modelTools).not.toContain('app-only')
    await ready(page)
    await expect(probe(page, 'done')).toHaveText('yes', { timeout: 15_000 })
    await expect(probe(page, 'input')).toHaveText('{}')
    await expect(probe(page, 'result')).toHaveText('fixture result 42')
    const received = JSON.parse((await probe(page, 'received').textContent())!) as string[]
    expect(received.filter((m) => m.startsWith('EARLY'))).toEqual([])
    expect(received.indexOf('ui/notifications/tool-input')).toBeLessThan(received.indexOf('ui/notifications/tool-result'))
    expect(received.filter((m) => m === 'ui/notifications/tool-input')).toHaveLength(1)
    expect(received.filter((m) => m === 'ui/notifications/tool-result')).toHaveLength(1)
    await expect(probe(page, 'call app-only')).toHaveText('app-only ok')
    await expect(probe(page, 'call fixture')).toHaveText('fixture result 42')
    await expect(probe(page, 'call model-only')).toHaveText(/error: .*not callable by apps/)
    expect((h.fixture.calls['app-only'] ?? 0) - (calls['app-only'] ?? 0)).toBe(1)
    expect(h.fixture.calls['model-only'] ?? 0).toBe(calls['model-only'] ?? 0)
  })

  test('the app cannot touch the host DOM, its origin is opaque (allow-same-origin stripped), no storage', async ({ page }) => {
    await show(page, { tool: 'fixture' })
    await ready(page)
    await expect(probe(page, 'done')).toHaveText('yes', { timeout: 15_000 })
    await expect(probe(page, 'top')).toHaveText(/^blocked/)
    await expect(probe(page, 'parent')).toHaveText(/^blocked/)
    await expect(probe(page, 'write-host')).toHaveText(/^blocked/)
    await expect(page.locator('#secret')).toHaveText('host page secret')
    // The resource asked for allow-same-origin; the sandbox stripped it: the app's origin is opaque, never the host's.
    await expect(probe(page, 'origin')).toHaveText('null')
    await expect(probe(page, 'storage')).toHaveText(/^blocked/)
    const hostOrigin = new URL(h.host).origin
    expect(await probe(page, 'origin').textContent()).not.toBe(hostOrigin)
    expect(await probe(page, 'referrer').textContent()).not.toContain(hostOrigin)
    // Chromium lists every ancestor's origin in location.ancestorOrigins, which no page can hide from a frame
    // it embeds: recorded, not asserted (the app's own origin and every message it gets are the sandbox's).
    test.info().annotations.push({ type: 'ancestorOrigins seen by the app', description: (await probe(page, 'ancestors').textContent()) ?? '' })
    const sandboxFrame = page.locator('#app iframe')
    expect(new URL((await sandboxFrame.getAttribute('src'))!).origin).not.toBe(hostOrigin)
    await expect(sandboxFrame).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms')
  })

  test('an undeclared fetch is blocked by the default CSP (connect-src), and reported as a violation', async ({ page }) => {
    await show(page, { tool: 'fixture' })
    await ready(page)
    await expect(probe(page, 'fetch')).toHaveText(/^blocked/, { timeout: 15_000 })
    await expect(probe(page, 'violation')).toHaveText(/^connect-src .*\/probe/)
  })

  test('the frame grows with the app', async ({ page }) => {
    await show(page, { tool: 'fixture' })
    await ready(page)
    await expect(probe(page, 'done')).toHaveText('yes', { timeout: 15_000 })
    await expect.poll(() => page.locator('#app iframe').evaluate((f) => f.getBoundingClientRect().height)).toBeGreaterThan(600)
    await expect(app(page).locator('#tall')).toBeInViewport()
  })

  test('a view that waits before `initialized` gets nothing but its initialize answer until then', async ({ page }) => {
    await show(page, { tool: 'slow' })
    await ready(page)
    const got = app(page).locator('#got')
    await expect(got).toContainText('ui/notifications/tool-result')
    const order = JSON.parse((await got.textContent())!) as string[]
    expect(order.slice(0, 2)).toEqual(['response:1', 'INITIALIZED'])
    expect(order.slice(2)).toEqual(expect.arrayContaining(['ui/notifications/tool-input', 'ui/notifications/tool-result']))
  })

  test('close(): teardown asked and answered, frame and listeners gone, state closed', async ({ page }) => {
    await show(page, { tool: 'fixture' })
    await ready(page)
    await expect(probe(page, 'done')).toHaveText('yes', { timeout: 15_000 })
    const ms = await timedClose(page)
    expect(ms).toBeLessThan(1500)
    expect(await status(page)).toBe('closed')
    await expect(page.locator('#app iframe')).toHaveCount(0)
  })

  test('close() of an app that never answers teardown ends after the bounded wait', async ({ page }) => {
    await show(page, { tool: 'silent', teardownTimeout: 1000 })
    await ready(page)
    await expect(probe(page, 'done')).toHaveText('yes', { timeout: 15_000 })
    const ms = await timedClose(page)
    expect(ms).toBeGreaterThanOrEqual(950)
    expect(ms).toBeLessThan(3000)
    expect(await status(page)).toBe('closed')
    await expect(page.locator('#app iframe')).toHaveCount(0)
  })
})

test.describe('bad input', () => {
  test('a view that never says hello: error (TimeoutError) after the timeout, frame removed', async ({ page }) => {
    await show(page, { tool: 'never', timeout: 1500 })
    await expect(page.locator('#state')).toHaveText(/^error TimeoutError: ui\/initialize timed out after 1500 ms/, { timeout: 10_000 })
    await expect(page.locator('#app iframe')).toHaveCount(0)
  })

  test('a resource of the wrong MIME type: AppResourceError in $state', async ({ page }) => {
    await show(page, { tool: 'bad-mime' })
    await expect(page.locator('#state')).toHaveText(/^error AppResourceError: .*MIME type/)
  })

  test('an app that floods size-changed: AppProtocolError flood, the view removed, the page unharmed', async ({ page }) => {
    await show(page, { tool: 'flood' })
    await expect(page.locator('#state')).toHaveText(/^error AppProtocolError: .*resize loop/, { timeout: 10_000 })
    await expect(page.locator('#app iframe')).toHaveCount(0)
    await expect(page.locator('#secret')).toHaveText('host page secret')
  })

  test('malformed JSON-RPC: answered -32600 where it has an id, recorded, the view goes on', async ({ page }) => {
    await show(page, { tool: 'malformed' })
    await expect(page.locator('#state')).toHaveText('ready AppProtocolError: the app sent a message that is not JSON-RPC 2.0', { timeout: 20_000 })
    await expect(app(page).locator('#answers')).toHaveText('[-32600]')
    expect(await page.evaluate(() => window.appState?.error?.name)).toBe('AppProtocolError')
  })

  test('a sandbox on the host page own origin, and a tool without a UI, are refused at the call', async ({ page }) => {
    const sameOrigin = new URL('/src/apps/sandbox.html', h.host).href
    await expect(show(page, { tool: 'fixture', sandbox: sameOrigin })).rejects.toThrow(/another origin/)
    expect(await page.evaluate(() => window.mountError)).toMatch(/^AppSandboxError/)
    await expect(show(page, { tool: 'app-only' })).rejects.toThrow(/has no UI/)
    expect(await page.evaluate(() => window.mountError)).toMatch(/^AppResourceError/)
  })

  test('the sandbox refuses a page its allowlist does not name: nothing is relayed, the handshake times out', async ({ page }) => {
    await show(page, { tool: 'fixture', sandbox: `${h.sandbox}?origins=https://elsewhere.example`, timeout: 2000 })
    await expect(page.locator('#state')).toHaveText(/^error TimeoutError/, { timeout: 10_000 })
  })
})

/** How long the view's close() took, in ms (its teardown wait included). */
function timedClose(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const t = performance.now()
    await window.view!.close()
    return performance.now() - t
  })
}
