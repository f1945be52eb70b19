// Issue 17 with issue 14: two tabs share one client in a SharedWorker in front of the OAuth-protected embedded
// server. $auth is the worker's, mirrored; a click in one tab opens the popup there (a worker cannot), the AS's
// real login and consent forms are filled, and both tabs get the tools with one sign-in.
import { resolve } from 'node:path'
import { build, preview, type PreviewServer } from 'vite'
import type { Page } from '@playwright/test'
import { expect, test } from './helpers'
import { drivePopup } from './oauth-popup'

const ROOT = resolve('e2e/shared-oauth')
const OUT = resolve('test-results/shared-oauth-page')
const PAGE_PORT = Number(process.env.E2E_PORT ?? 4173) + 3

let preview_: PreviewServer | undefined
test.afterAll(async () => {
  await preview_?.close()
})

test('two tabs, one worker: $auth mirrored, the clicked tab does the popup, one sign-in serves both', async ({ browser, servers }) => {
  test.setTimeout(180_000)
  await build({ configFile: false, root: ROOT, base: './', logLevel: 'warn', build: { outDir: OUT, emptyOutDir: true, rolldownOptions: { input: { main: resolve(ROOT, 'index.html'), callback: resolve(ROOT, 'callback.html') } } } })
  preview_ = await preview({ configFile: false, root: ROOT, logLevel: 'warn', build: { outDir: OUT }, preview: { host: '127.0.0.1', port: PAGE_PORT, strictPort: false } })
  const base = preview_.resolvedUrls?.local[0] ?? `http://127.0.0.1:${PAGE_PORT}/`
  const url = `${base}?server=${encodeURIComponent(servers.protected!.url)}`

  const context = await browser.newContext()
  await context.route(/fonts\.(googleapis|gstatic)\.com/, (route) => route.abort())
  const errors: string[] = []
  const popups: string[] = []
  const tabs: Page[] = []
  for (const name of ['a', 'b']) {
    const tab = await context.newPage()
    tab.on('pageerror', (error) => errors.push(error.message))
    tab.on('popup', () => popups.push(name))
    await tab.goto(url)
    tabs.push(tab)
  }
  for (const tab of tabs) {
    await expect(tab.locator('#mode')).toHaveText('worker', { timeout: 20_000 })
    await expect(tab.locator('#auth')).toHaveText(/^required/, { timeout: 20_000 })
  }

  const [popup] = await Promise.all([tabs[0]!.waitForEvent('popup'), tabs[0]!.locator('#sign-in').click()])
  expect(await drivePopup(popup)).toEqual({ logins: 1, consents: 1 })
  for (const tab of tabs) {
    await expect(tab.locator('#auth')).toHaveText('authorized', { timeout: 20_000 })
    await expect(tab.locator('#tools')).toContainText('echo', { timeout: 20_000 })
  }
  expect(popups).toEqual(['a'])
  // A helper from the tab that did not sign in runs on the worker's tokens.
  const echoed = await tabs[1]!.evaluate(async () => {
    const result = await (window as unknown as { mcp: { callTool(n: string, a: object): Promise<{ content: { text: string }[] }> } }).mcp.callTool('echo', { text: 'from tab b' })
    return result.content[0]!.text
  })
  expect(echoed).toBe('from tab b')
  await tabs[0]!.screenshot({ path: 'test-results/screenshots/shared-oauth-tab-a.png' })
  expect(errors).toEqual([])
  await context.close()
})
