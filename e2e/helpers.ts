// Shared steps of the demo's end-to-end tests: where the embedded servers are, how to open the built page
// against them, and how to change a server from outside the page.
import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test'

export const SERVERS_INDEX = `http://127.0.0.1:${process.env.E2E_SERVERS_PORT ?? 4180}/servers`
export const SCREENSHOTS = 'test-results/screenshots'

export interface ServerEntry {
  url: string
  control?: string
}
export type Servers = Record<string, ServerEntry>

export const test = base.extend<{ servers: Servers }>({
  servers: async ({ request }, use) => {
    const response = await request.get(SERVERS_INDEX)
    expect(response.ok(), `GET ${SERVERS_INDEX}`).toBe(true)
    const data = (await response.json()) as { servers?: Servers } & Servers
    await use(data.servers ?? data)
  },
  // Every test fails on an uncaught exception or an unhandled rejection in the page.
  page: async ({ page }, use) => {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await use(page)
    expect(errors, 'errors thrown in the page').toEqual([])
  },
})
export { expect }

/** The built demo, told where the embedded servers are (the hosted page has no list of its own). */
export async function openDemo(page: Page) {
  await page.goto(`./?servers=${encodeURIComponent(SERVERS_INDEX)}`)
  await expect(page.getByLabel('Server', { exact: true })).toBeVisible()
}

export async function connect(page: Page, kind: string) {
  await page.getByLabel('Server', { exact: true }).selectOption(kind)
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByTestId('era')).toBeVisible({ timeout: 15_000 })
}

export function control(request: APIRequestContext, server: ServerEntry | undefined, action: string) {
  if (!server?.control) throw new Error(`no control endpoint for ${server?.url}`)
  return request.post(`${server.control}/control/${action}`).then(async (response) => {
    expect(response.ok(), `POST /control/${action}: ${await response.text()}`).toBe(true)
    return (await response.json()) as Record<string, unknown>
  })
}

export const tab = (page: Page, kind: 'tools' | 'prompts' | 'resources' | 'resourceTemplates') =>
  page.locator(`button.tab[data-kind="${kind}"]`)

/** The catalogue button of one item (tools and prompts by name, resources by URI). */
export const item = (page: Page, key: string) => page.locator(`button.item[data-name="${key}"]`)

/** The detail pane's generated control for one argument. */
export const field = (page: Page, name: string) => page.locator(`#detail [name="${name}"]`).first()

/** Calls `tool` (an adder with fields a and b) with 20 and 22 from the page, and waits for its 42. */
export async function callAdder(page: Page, tool: string) {
  await item(page, tool).click()
  await field(page, 'a').fill('20')
  await field(page, 'b').fill('22')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toContainText('42')
}

export async function screenshot(page: Page, name: string, fullPage = true) {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage })
}

/** A loopback port that was free a moment ago, for a process the test starts itself. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/** `npm run demo` (scripts/demo.mjs) on a port of its own, as a newcomer starts it. */
export interface RunningDemo {
  port: number
  /** Everything it printed so far (stdout and stderr). */
  output(): string
  /** SIGTERM, then SIGKILL if it has not exited within 15 s. */
  stop(): Promise<void>
}

/** Starts the demo and resolves once it printed its URL (within `timeout`). */
export async function startDemo(timeout = 180_000): Promise<RunningDemo> {
  const port = await freePort()
  const child = spawn(process.execPath, ['scripts/demo.mjs', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))])
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
  try {
    await expect.poll(() => output, { timeout, message: 'the demo prints its URL' }).toContain('nanomcp demo: http')
  } catch (error) {
    await stop()
    throw error
  }
  return { port, output: () => output, stop }
}
