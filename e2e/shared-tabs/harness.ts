// What the shared-tabs specs share: the test page (built by Vite and served by its preview server, so the
// SharedWorker script is bundled as an app would bundle it), a TCP counter in front of the modern server, and
// a scope of that server per test for its own catalogue and request counts.
import { cpus, loadavg } from 'node:os'
import { resolve } from 'node:path'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { build, preview, type PreviewServer } from 'vite'
import { SERVERS_INDEX, expect } from '../helpers'
import { startTcpCounter, type TcpCounter } from '../tcp-counter'

const ROOT = resolve('e2e/shared-tabs')
const OUT = resolve('test-results/shared-tabs-page')
const PAGE_PORT = Number(process.env.E2E_PORT ?? 4173) + 2

export interface Harness {
  page: string
  counter: TcpCounter
  modern: { url: string; control: string }
  close(): Promise<void>
}

export async function startHarness(): Promise<Harness> {
  await build({ configFile: false, root: ROOT, base: './', logLevel: 'warn', build: { outDir: OUT, emptyOutDir: true } })
  const server: PreviewServer = await preview({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    build: { outDir: OUT },
    preview: { host: '127.0.0.1', port: PAGE_PORT, strictPort: false },
  })
  const page = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${PAGE_PORT}/`
  const servers = (await (await fetch(SERVERS_INDEX)).json()) as Record<string, { url: string; control: string }>
  const modern = servers.modern!
  const counter = await startTcpCounter(Number(new URL(modern.url).port))
  return {
    page,
    counter,
    modern,
    async close() {
      await counter.close()
      await server.close()
    },
  }
}

/** One scope of the modern server, reached through the counter; `stats()` are the scope's request counts. */
export function scope(h: Harness, name: string) {
  const url = `http://127.0.0.1:${h.counter.port}/s/${name}/mcp`
  const control = `${h.modern.control}/s/${name}/control`
  return {
    url,
    async control(action: string) {
      const response = await fetch(`${control}/${action}`, { method: 'POST' })
      expect(response.ok, `POST ${action}`).toBe(true)
      return (await response.json()) as Record<string, unknown>
    },
    async stats() {
      return ((await (await fetch(`${control}/stats`)).json()) as { byMethod: Record<string, number> }).byMethod
    },
  }
}

/** Opens `count` tabs of the test page in one browser context (one connection pool, as one user's browser). */
export async function openTabs(browser: Browser, h: Harness, server: string, mode: string, count: number) {
  const context = await browser.newContext()
  const errors: string[] = []
  const pages: Page[] = []
  for (let i = 0; i < count; i++) {
    const page = await context.newPage()
    page.on('pageerror', (error) => errors.push(`tab ${i}: ${error.message}`))
    await page.goto(`${h.page}?server=${encodeURIComponent(server)}&mode=${mode}&tab=${i}`)
    pages.push(page)
  }
  return { context, pages, errors }
}

export const live = (page: Page, timeout = 15_000) =>
  Promise.all([
    expect(page.locator('#tools')).toContainText('echo', { timeout }),
    expect(page.locator('#subscription')).toHaveText('acknowledged', { timeout }),
  ])

/** Adds a tool on the server and resolves with how long each tab took to show it (ms; Infinity: not within `wait`). */
export async function latencies(pages: Page[], server: ReturnType<typeof scope>, wait = budget()): Promise<number[]> {
  const started = Date.now()
  const { name } = (await server.control('add-tool')) as { name: string }
  return Promise.all(
    pages.map(async (page) => {
      try {
        await expect(page.locator('#tools')).toContainText(name, { timeout: wait })
      } catch {
        return Infinity
      }
      return (await page.evaluate((n) => (window as unknown as { seen: Record<string, number> }).seen[n]!, name)) - started
    }),
  )
}

/**
 * The update budget: one second, stretched by how overloaded the machine is (a load average of 16 on two cores
 * starves eight renderers; the figures are recorded raw either way). A tab that never sees the change fails.
 */
export const budget = (ms = 1000) => Math.round(ms * Math.max(1, loadavg()[0]! / cpus().length))

export type McpWindow = Window & {
  mcp: {
    callTool(name: string, args?: Record<string, unknown>, options?: Record<string, unknown>): Promise<Record<string, unknown>>
    close(): Promise<void>
  }
  errorOf(error: unknown): { name: string; message: string; reason?: unknown; shared: boolean }
}

export type { BrowserContext }
