// The hosted page as it is deployed: the output of `npm run build:demo`, served by a plain static file server
// under a sub-path (as on GitHub Pages) and at a root, on another origin than the MCP servers, with no list of
// embedded servers. It reaches them only through the URL field or a `?url=` link.
import { expect as baseExpect, type Page } from '@playwright/test'
import { control, expect, field, item, screenshot, test } from './helpers'
import { serveStatic, type StaticSite } from './static-server'

let site: StaticSite
let rootSite: StaticSite
test.beforeAll(async () => {
  site = await serveStatic('dist-demo', '/nanomcp/')
  rootSite = await serveStatic('dist-demo', '/')
})
test.afterAll(async () => {
  await site?.close()
  await rootSite?.close()
})

const KINDS = [
  { kind: 'modern', era: 'modern', transport: 'http', label: 'Streamable HTTP' },
  { kind: 'legacy', era: 'legacy', transport: 'http', label: 'Streamable HTTP' },
  { kind: 'sse', era: 'legacy', transport: 'sse', label: 'HTTP+SSE' },
] as const

/** Connected, browsing, and a tool call that comes back: the page works against this server. */
async function provesWorking(page: Page, era: string, label: string) {
  await expect(page.getByTestId('era')).toHaveText(era, { timeout: 15_000 })
  await expect(page.locator('.badge-transport')).toHaveText(label)
  await item(page, 'add').click()
  await field(page, 'a').fill('40')
  await field(page, 'b').fill('2')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result').locator('.block-text pre')).toHaveText('42')
}

function noFailedAssets(s: StaticSite) {
  baseExpect(s.log.filter((r) => r.status >= 400 && !r.path.includes('favicon'))).toEqual([])
}

test('under /nanomcp/: the first screen says what the page is and what CORS the server must allow', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(site.url)
  await expect(page.getByRole('heading', { name: 'What this page is' })).toBeInViewport()
  const origin = new URL(site.url).origin
  await expect(page.locator('#page-origin')).toHaveText(origin)
  const cors = page.getByTestId('cors-headers')
  await expect(cors).toBeInViewport()
  await expect(cors).toContainText(`Access-Control-Allow-Origin: ${origin}`)
  await expect(cors).toContainText(
    'Access-Control-Allow-Headers: Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*, Mcp-Session-Id, Authorization, Last-Event-ID',
  )
  await expect(cors).toContainText('Access-Control-Expose-Headers: Mcp-Session-Id, WWW-Authenticate')
  // No embedded servers behind the hosted page: no picker, only the URL field.
  await expect(page.getByLabel('Server', { exact: true })).toBeHidden()
  // Every asset came from under the sub-path.
  expect(site.log.some((r) => r.path.startsWith('/nanomcp/assets/') && r.path.endsWith('.js') && r.status === 200)).toBe(true)
  expect(site.log.some((r) => r.path.startsWith('/nanomcp/assets/') && r.path.endsWith('.css') && r.status === 200)).toBe(true)
  noFailedAssets(site)
  // Built without DEMO_SITE_URL: no client metadata document, and the page does not look for one (DCR instead).
  expect(site.log.filter((r) => r.path.includes('client-metadata'))).toEqual([])
  await screenshot(page, 'hosted-first-screen-1280', false)
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshot(page, 'hosted-first-screen-390', false)
})

for (const server of KINDS) {
  test(`under /nanomcp/: the URL field connects to the ${server.kind} server`, async ({ page, request, servers }) => {
    await control(request, servers[server.kind], 'reset')
    await page.goto(site.url)
    await page.getByLabel('MCP server URL').fill(servers[server.kind]!.url)
    // Auto for every kind: the HTTP+SSE server is found by the fallback.
    await expect(page.getByLabel('Transport')).toHaveValue('auto')
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    await provesWorking(page, server.era, server.label)
    // The address bar now links to this server, under the sub-path.
    const link = new URL(page.url())
    expect(link.pathname).toBe('/nanomcp/')
    expect(link.searchParams.get('url')).toBe(servers[server.kind]!.url)
    noFailedAssets(site)
  })

  test(`under /nanomcp/: a ?url= link opens the page connected to the ${server.kind} server`, async ({ page, request, servers }) => {
    await control(request, servers[server.kind], 'reset')
    const url = new URL(site.url)
    url.searchParams.set('url', servers[server.kind]!.url)
    url.searchParams.set('transport', server.transport)
    await page.goto(url.href)
    await expect(page.getByLabel('MCP server URL')).toHaveValue(servers[server.kind]!.url)
    await expect(page.getByLabel('Transport')).toHaveValue(server.transport)
    await provesWorking(page, server.era, server.label)
  })
}

test('at the root of another static host: connects the same way', async ({ page, servers }) => {
  await page.goto(`${rootSite.url}?url=${encodeURIComponent(servers.modern!.url)}`)
  await provesWorking(page, 'modern', 'Streamable HTTP')
  noFailedAssets(rootSite)
})

test('the URL is remembered across reloads', async ({ page, servers }) => {
  await page.goto(site.url)
  await page.getByLabel('MCP server URL').fill(servers.legacy!.url)
  await page.getByLabel('Transport').selectOption('http')
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByTestId('era')).toHaveText('legacy', { timeout: 15_000 })
  await page.goto(site.url)
  await expect(page.getByLabel('MCP server URL')).toHaveValue(servers.legacy!.url)
  await expect(page.getByLabel('Transport')).toHaveValue('http')
  // Remembered, not connected: only a link connects by itself.
  await expect(page.getByTestId('era')).toBeHidden()
})

const HOSTILE = [
  ['javascript:window.__xss=1', /Only http and https addresses/],
  ['"><img src=x onerror="window.__xss=2">', /has spaces in it/],
  ['data:text/html,<script>window.__xss=3</script>', /Only http and https addresses/],
  ['<img/src=x/onerror=window.__xss=5>', /is not a URL/],
  ['http://exa mple.com/mcp', /has spaces in it/],
] as const

for (const [value, message] of HOSTILE) {
  test(`a hostile ?url= is refused as text, never run: ${value.slice(0, 24)}`, async ({ page }) => {
    const url = new URL(site.url)
    url.searchParams.set('url', value)
    url.searchParams.set('transport', '<script>window.__xss=4</script>')
    await page.goto(url.href)
    await expect(page.locator('#form-problem')).toHaveText(message)
    await expect(page.getByLabel('MCP server URL')).toHaveValue(value)
    await expect(page.getByLabel('Transport')).toHaveValue('auto')
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined()
    await expect(page.locator('img[src="x"]')).toHaveCount(0)
    expect(await page.locator('script').evaluateAll((scripts) => scripts.filter((s) => s.textContent?.includes('__xss')).length)).toBe(0)
    // Still usable: nothing was sent, the intro stands, a good address connects.
    await expect(page.getByRole('heading', { name: 'What this page is' })).toBeVisible()
  })
}
