// Where the page opens. A restarted `npm run demo` (its servers may get other ports) still opens on the server the
// user left, found by its picker entry; a stale or unreadable memory falls back to the first server and says so.
// The demo also stays quiet in normal use: no MaxListenersExceededWarning in its output.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import type { Page } from '@playwright/test'
import { expect, item, openDemo, test, freePort } from './helpers'

/** Holds a port so the demo has to fall back from its stable one; undefined when someone else already holds it. */
function hold(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(undefined))
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

async function runDemo(port: number) {
  const child = spawn(process.execPath, ['scripts/demo.mjs', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  await expect.poll(() => output, { timeout: 90_000, message: 'the demo prints its URL' }).toContain('nanomcp demo: http')
  const modern = /modern\s+(http\S+)/.exec(output)?.[1] ?? ''
  return { child, exited, modern, output: () => output }
}

async function stop(child: ChildProcess, exited: Promise<number | null>) {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))])
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}

const connected = (page: Page) => expect(page.getByTestId('era')).toBeVisible({ timeout: 20_000 })

test('a restart of the embedded servers between two page loads: the page finds the same server again', async ({ page }) => {
  test.setTimeout(240_000)
  const port = await freePort()
  let first = await runDemo(port)
  let second: Awaited<ReturnType<typeof runDemo>> | undefined
  let held: Server | undefined
  try {
    await page.goto(`http://127.0.0.1:${port}/`)
    await expect(page.getByLabel('MCP server URL')).toHaveValue(first.modern)
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    await connected(page)
    await expect(page).toHaveURL(/[?&]server=modern(&|$)/)

    // Eleven steps and more used to leave one abort listener per step on the request's signal.
    await item(page, 'slow_count').click()
    await page.locator('#detail [name="steps"]').fill('15')
    await page.locator('#detail [name="delayMs"]').fill('5')
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByTestId('tool-result')).toContainText('counted to 15')

    const link = page.url()
    await page.close()
    await stop(first.child, first.exited)
    expect(first.output()).not.toContain('MaxListenersExceededWarning')
    // The stable port is taken now: the restarted modern server must fall back to another one.
    held = await hold(Number(new URL(first.modern).port))
    second = await runDemo(port)
    expect(second.modern).not.toBe(first.modern)

    // The address bar still says the old port; the entry in it finds the new one. (A new tab: the open one's Vite
    // client reloads it by itself once the dev server is back, at a moment the test does not control.)
    expect(link).toContain(encodeURIComponent(first.modern))
    const again = await page.context().newPage()
    await again.goto(link)
    await connected(again)
    await expect(again.getByLabel('MCP server URL')).toHaveValue(second.modern)
    await expect(again.getByTestId('era')).toHaveText('modern')

    // Without a link, the remembered entry is what the page opens on.
    await again.goto(`http://127.0.0.1:${port}/`)
    await expect(again.getByLabel('Server', { exact: true })).toHaveValue('modern')
    await expect(again.getByLabel('MCP server URL')).toHaveValue(second.modern)
    await expect(again.getByTestId('start-note')).toHaveCount(0)
    await again.close()
  } finally {
    await stop(first.child, first.exited)
    if (second) await stop(second.child, second.exited)
    await new Promise((resolve) => (held ? held.close(resolve) : resolve(undefined)))
  }
})

for (const [what, stored, says] of [
  ['a stale entry', JSON.stringify({ url: 'http://127.0.0.1:9/mcp', transport: 'http', server: 'retired-server' }), 'The remembered server “retired-server” is not in this page\'s list'],
  ['unreadable JSON', '{"url": "http://127.0.0.1:9/mcp", ', 'The remembered connection settings could not be read'],
  ['a field of the wrong type', JSON.stringify({ url: 'http://127.0.0.1:9/mcp', server: 42 }), 'The remembered connection settings could not be read'],
  ['an old URL-only memory of a gone port', JSON.stringify({ url: 'http://127.0.0.1:9/mcp', transport: 'http' }), 'The remembered address http://127.0.0.1:9/mcp is none of this run'],
] as const) {
  test(`${what} falls back to the first server with a line saying so`, async ({ page, servers }) => {
    await page.goto('./')
    await page.evaluate((value) => localStorage.setItem('nanomcp-demo:connection', value), stored)
    await openDemo(page)
    await expect(page.getByTestId('start-note')).toContainText(says)
    await expect(page.getByTestId('start-note')).toContainText('starting on Modern · 2026-07-28 instead')
    await expect(page.getByLabel('Server', { exact: true })).toHaveValue('modern')
    await expect(page.getByLabel('MCP server URL')).toHaveValue(servers.modern!.url)
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    await connected(page)
  })
}
