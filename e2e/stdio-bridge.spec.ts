// `npm run demo`'s stdio bridge and "via proxy", in Chromium: server-everything in stdio mode started from the page
// and listed and called; the bridge refusing a page without the token and a page on another origin; and a server
// without CORS (the SDK's example) failing directly, then reached through the demo's proxy from the diagnosis.
import { expect, field, item, startDemo, test, type RunningDemo } from './helpers'
// @ts-expect-error plain ESM test servers without types
import { startSdkOAuthExample } from '../scripts/servers/sdk-oauth-example.mjs'

const EVERYTHING = 'node node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio'

let demo: RunningDemo | undefined
let pageUrl = ''

test.beforeAll(async () => {
  test.setTimeout(120_000)
  demo = await startDemo(90_000)
  pageUrl = /nanomcp demo: (http\S+)/.exec(demo.output())![1]!
})
test.afterAll(async () => {
  await demo?.stop()
})

test('a stdio server (server-everything) started from the page, listed and called through the bridge', async ({ page }) => {
  test.setTimeout(90_000)
  expect(new URL(pageUrl).searchParams.get('bridge')).toMatch(/^[\w-]{32}$/)
  await page.goto(pageUrl)
  await page.locator('#stdio > summary').click()
  await page.getByLabel('stdio command').fill(EVERYTHING)
  await page.getByRole('button', { name: 'Start and connect' }).click()
  await expect(page.getByTestId('era')).toBeVisible({ timeout: 30_000 })
  await expect(item(page, 'echo')).toBeVisible()
  await item(page, 'echo').click()
  await field(page, 'message').fill('over stdio')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toContainText('over stdio')
  await page.screenshot({ path: 'test-results/screenshots/stdio-bridge.png' })
})

test('a command that exits at once is named in the page, which stays usable', async ({ page }) => {
  await page.goto(pageUrl)
  await page.locator('#stdio > summary').click()
  await page.getByLabel('stdio command').fill('node -e "process.exit(3)"')
  await page.getByRole('button', { name: 'Start and connect' }).click()
  await expect(page.getByTestId('stdio-problem')).toContainText('"node -e "process.exit(3)"" exited at once')
  await expect(page.getByRole('button', { name: 'Start and connect' })).toBeEnabled()
})

test('the bridge refuses a page without the token, and a page on another origin even with it', async ({ page, browser }) => {
  const url = new URL(pageUrl)
  const token = url.searchParams.get('bridge')!
  const context = await browser.newContext()
  const bare = await context.newPage()
  // The demo's own origin without the token: the page says where to get it; a guessed token is refused (403).
  await bare.goto(`${url.origin}/`)
  await bare.locator('#stdio > summary').click()
  await expect(bare.locator('#stdio')).toContainText('Open the page from the link')
  const bridge = (await bare.locator('#stdio').getAttribute('data-bridge'))!
  expect(new URL(bridge).hostname).toBe('127.0.0.1')
  const guessed = await bare.evaluate(async ([b]) => {
    const r = await fetch(`${b}${'x'.repeat(32)}/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"command":"node -e 1"}' })
    return r.status
  }, [bridge])
  expect(guessed).toBe(403)
  await context.close()
  // Another origin (the built demo Playwright serves) with the right token: the bridge answers nothing it may read.
  await page.goto('/')
  const foreign = await page.evaluate(async ([b, t]) => {
    try {
      const r = await fetch(`${b}${t}/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"command":"node -e 1"}' })
      return `status ${r.status}`
    } catch (error) {
      return `failed: ${(error as Error).name}`
    }
  }, [bridge, token])
  expect(foreign).toBe('failed: TypeError')
})

test('a server without CORS fails directly; the diagnosis offers the demo proxy, which reaches it', async ({ page }) => {
  test.setTimeout(90_000)
  const example = await startSdkOAuthExample({ oauth: false })
  try {
    await page.goto(pageUrl)
    await page.locator('#server-url').fill(example.url)
    await page.locator('#transport').selectOption('http')
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    await expect(page.getByTestId('diagnosis')).toContainText('CORS', { timeout: 30_000 })
    await page.getByTestId('retry-via-proxy').click()
    await expect(page.getByTestId('era')).toBeVisible({ timeout: 30_000 })
    await expect(item(page, 'greet')).toBeVisible()
    await item(page, 'greet').click()
    await field(page, 'name').fill('via proxy')
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByTestId('tool-result')).toContainText('via proxy')
    await page.screenshot({ path: 'test-results/screenshots/demo-via-proxy.png' })
  } finally {
    await example.close()
  }
})

test('the hosted page offers neither stdio nor a proxy and says why; its CORS diagnosis shows the one-line deployment', async ({ page }) => {
  test.setTimeout(60_000)
  const example = await startSdkOAuthExample({ oauth: false })
  try {
    // The built page Playwright serves has no bridge and no proxy behind it, as on a static host.
    await page.goto('/')
    await page.locator('#stdio > summary').click()
    await expect(page.getByTestId('stdio-hosted')).toContainText('Only on the local demo')
    await page.locator('#options > summary').click()
    await expect(page.locator('#via-proxy')).toBeDisabled()
    await page.locator('#server-url').fill(example.url)
    await page.locator('#transport').selectOption('http')
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    await expect(page.getByTestId('diagnosis')).toContainText('CORS', { timeout: 30_000 })
    await expect(page.getByTestId('proxy-deployment')).toContainText(`nanomcpProxy({ upstreams: ['${new URL(example.url).origin}'] })`)
    await expect(page.getByTestId('retry-via-proxy')).toHaveCount(0)
  } finally {
    await example.close()
  }
})
