// The official SDK's OAuth example (no CORS on /mcp) from a page on another origin, through nanomcp/proxy mounted
// two ways: by the Vite plugin in the page's own dev server (same-origin proxy), and in a small Node server on a
// third origin (cross-origin proxy: its CORS allowlist holds the page's origin). For each: sign-in by popup and by
// redirect, tools listed, a call made, a reload with session storage still authorized, sign-out closing the stream.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { createServer, type ViteDevServer } from 'vite'
import { nodeHandler } from '../src/proxy/node'
import { mcpProxy } from '../src/proxy/proxy'
import { nanomcpProxy } from '../src/vite/index'
// @ts-expect-error plain ESM test servers without types
import { startSdkOAuthExample } from '../scripts/servers/sdk-oauth-example.mjs'

const ROOT = resolve('e2e/proxy-page')
let example: { url: string; origins: string[]; close(): Promise<void> }
const stops: (() => Promise<unknown>)[] = []

test.beforeAll(async () => {
  example = await startSdkOAuthExample()
})
test.afterAll(async () => {
  for (const stop of stops.splice(0).reverse()) await stop()
  await example?.close()
})

async function devServer(plugins: ReturnType<typeof nanomcpProxy>[]): Promise<string> {
  const vite: ViteDevServer = await createServer({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    // Every dependency is ESM: served as it is, so no mid-test optimisation reloads the page.
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
    plugins,
  })
  await vite.listen()
  stops.push(() => vite.close())
  return `http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}/`
}

async function nodeProxy(pageOrigin: string): Promise<string> {
  const server = http.createServer(nodeHandler(mcpProxy({ upstreams: example.origins, origins: [pageOrigin] })))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  stops.push(() => new Promise((done) => (server.closeAllConnections(), server.close(done))))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp-proxy/`
}

const deployments = {
  /** The Vite plugin in the page's own dev server: the proxy is same-origin with the page. */
  'Vite plugin': async () => {
    const page = await devServer([nanomcpProxy({ upstreams: example.origins })])
    return { page, proxy: '/mcp-proxy/' }
  },
  /** A Node server on a third origin, allowing the page's origin. */
  'Node server': async () => {
    const page = await devServer([])
    return { page, proxy: await nodeProxy(new URL(page).origin) }
  },
}

async function signIn(page: Page, mode: 'popup' | 'redirect') {
  if (mode === 'popup') {
    // The SDK's demo AS approves at once: the popup goes to the callback page, which closes it.
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator('#sign-in').click()])
    await popup.waitForEvent('close', { timeout: 20_000 })
  } else {
    await page.locator('#sign-in').click()
    await page.waitForURL((url) => !url.pathname.endsWith('callback.html') && url.searchParams.has('server'), { timeout: 20_000 })
  }
}

for (const [name, deploy] of Object.entries(deployments)) {
  for (const mode of ['popup', 'redirect'] as const) {
    test(`${name}, sign-in by ${mode}: tools, a call, reload authorized, sign-out closes the stream`, async ({ page }) => {
      test.setTimeout(90_000)
      const { page: base, proxy } = await deploy()
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      const direct: string[] = []
      // Nothing may go to the MCP server or its AS except through the proxy (navigations to the AS aside).
      page.on('request', (request) => {
        if (example.origins.some((origin) => request.url().startsWith(origin)) && request.resourceType() !== 'document') direct.push(request.url())
      })
      const url = `${base}?server=${encodeURIComponent(example.url)}&proxy=${encodeURIComponent(proxy)}&mode=${mode}`
      await page.goto(url)
      await expect(page.locator('#auth')).toHaveText(/^required/, { timeout: 20_000 })

      await signIn(page, mode)
      await expect(page.locator('#auth')).toHaveText('authorized', { timeout: 20_000 })
      await expect(page.locator('#tools')).toContainText('greet', { timeout: 20_000 })
      await page.locator('#call').click()
      await expect(page.locator('#result')).toContainText('page')

      await page.reload()
      await expect(page.locator('#auth')).toHaveText('authorized', { timeout: 20_000 })
      await expect(page.locator('#tools')).toContainText('greet', { timeout: 20_000 })
      await expect(page.locator('#streams')).not.toHaveText('0', { timeout: 20_000 })

      await page.locator('#sign-out').click()
      await expect(page.locator('#streams')).toHaveText('0', { timeout: 10_000 })
      await expect(page.locator('#auth')).not.toHaveText('authorized')
      expect(direct).toEqual([])
      expect(errors).toEqual([])
      await page.screenshot({ path: `test-results/screenshots/sdk-oauth-proxy-${name.replace(/\W+/g, '-').toLowerCase()}-${mode}.png` })
    })
  }
}
