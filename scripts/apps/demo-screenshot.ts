// A screenshot of `npm run demo` showing a tool's app: starts the demo (its MCP servers, the example servers and
// the sandbox page), opens it in Chromium at 1280x800, calls system-monitor's get-system-info and waits for
// the app. Usage: node scripts/apps/demo-screenshot.ts <out.png> [port]
import { spawn } from 'node:child_process'
import { chromium } from 'playwright'
import { chromiumArgs, chromiumPath } from '../chromium.ts'

const [out = 'test-results/apps-demo.png', port = '5220'] = process.argv.slice(2)
const demo = spawn(process.execPath, ['scripts/demo.mjs', '--port', port], { stdio: ['ignore', 'pipe', 'inherit'] })
let log = ''
demo.stdout.on('data', (chunk) => (log += chunk))
const stopDemo = () => new Promise((done) => (demo.once('exit', done), demo.kill('SIGTERM')))
try {
  const deadline = Date.now() + 120_000
  while (!log.includes('nanomcp demo:')) {
    if (Date.now() > deadline || demo.exitCode !== null) throw new Error(`the demo did not start:\n${log}`)
    await new Promise((r) => setTimeout(r, 250))
  }
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.goto(`http://127.0.0.1:${port}/`)
    await page.getByLabel('Server', { exact: true }).selectOption('system-monitor')
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    await page.locator('button.item[data-name="get-system-info"]').click({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Call tool' }).click()
    const app = page.frameLocator('.app-frame iframe').frameLocator('iframe')
    await app.getByText('System Info', { exact: false }).first().waitFor({ timeout: 30_000 })
    await page.waitForTimeout(3000)
    await page.locator('[data-testid="app-slot"]').scrollIntoViewIfNeeded()
    await page.screenshot({ path: out })
    console.log(`saved ${out}`)
  } finally {
    await browser.close()
  }
} finally {
  await stopDemo()
}
