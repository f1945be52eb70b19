// `npm run demo` shows MCP Apps: it starts two official example servers and serves sandbox.html on a second
// loopback origin; calling a tool with a UI mounts its app beside the text result. Saves a 1280x800 screenshot
// (APPS_DEMO_SCREENSHOT names the file; default under test-results/screenshots/).
import { connect, expect, item, SCREENSHOTS, startDemo, test } from './helpers'

test('npm run demo: a tool with a UI shows its app (system-monitor) in the sandbox on a second origin', async ({ page }) => {
  test.setTimeout(240_000)
  const demo = await startDemo()
  const { port } = demo
  const output = demo.output()
  try {
    expect(output).toMatch(/basic-vanillajs\s+http:\/\/127\.0\.0\.1:\d+\/mcp/)
    expect(output).toMatch(/system-monitor\s+http:\/\/127\.0\.0\.1:\d+\/mcp/)
    const sandbox = /MCP Apps sandbox \(a second origin\): (\S+)/.exec(output)?.[1] ?? ''
    expect(new URL(sandbox).origin).not.toBe(`http://127.0.0.1:${port}`)

    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`http://127.0.0.1:${port}/`)
    await connect(page, 'system-monitor')
    await item(page, 'get-system-info').click()
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByTestId('tool-result')).toBeVisible({ timeout: 30_000 })
    const app = page.frameLocator('.app-frame iframe').frameLocator('iframe')
    await expect(app.getByText('Hostname')).toBeVisible({ timeout: 30_000 })
    await expect(page.locator('.app-frame iframe')).toHaveAttribute('src', sandbox)
    await page.waitForTimeout(2500)
    await page.getByTestId('app-slot').scrollIntoViewIfNeeded()
    await page.screenshot({ path: process.env.APPS_DEMO_SCREENSHOT ?? `${SCREENSHOTS}/apps-demo.png` })
  } finally {
    await demo.stop()
  }
})

test('the hosted build without VITE_APPS_SANDBOX_URL says how to deploy the sandbox instead of showing the app', async ({ page }) => {
  test.setTimeout(120_000)
  // @ts-expect-error: a JavaScript module without declarations
  const { startAppServer } = await import('../scripts/servers/apps.mjs')
  const server = (await startAppServer('basic-vanillajs')) as { url: string; close(): Promise<void> }
  try {
    await page.goto(`./?url=${encodeURIComponent(server.url)}`)
    await expect(page.getByTestId('era')).toBeVisible({ timeout: 30_000 })
    await item(page, 'get-time').click()
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByTestId('tool-result')).toBeVisible({ timeout: 30_000 })
    await expect(page.getByTestId('app-sandbox-missing')).toContainText('sandbox.html')
    await expect(page.getByTestId('app-sandbox-missing')).toContainText('VITE_APPS_SANDBOX_URL')
    await expect(page.locator('iframe')).toHaveCount(0)
  } finally {
    await server.close()
  }
})
