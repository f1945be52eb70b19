// What both input-kinds specs share: the input-kinds scope's URL, connecting by URL, axe's serious findings,
// the JSON-RPC bodies a page sent, and calling a tool from the catalogue.
import AxeBuilder from '@axe-core/playwright'
import type { Page, Request } from '@playwright/test'
import { expect, item, type ServerEntry } from './helpers'

/** The modern server's scope that serves ask_llm, list_roots and open_consent (scripts/servers/input-kinds.mjs). */
export function inputKinds(modern: ServerEntry | undefined): string {
  if (!modern) throw new Error('no modern server')
  const url = new URL(modern.url)
  return `${url.origin}/s/input-kinds${url.pathname}`
}

export async function connectTo(page: Page, url: string) {
  await page.getByLabel('MCP server URL').fill(url)
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByTestId('era')).toBeVisible({ timeout: 15_000 })
}

export async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

export const bodies = (requests: Request[]) =>
  requests.flatMap((r) => {
    try {
      return r.method() === 'POST' ? [JSON.parse(r.postData() ?? '') as { method?: string; params?: Record<string, unknown> }] : []
    } catch {
      return []
    }
  })

export async function callTool(page: Page, name: string) {
  await item(page, name).click()
  await page.getByRole('button', { name: 'Call tool' }).click()
}

/** The URL-elicitation dialog a call opened: the server's message, the full URL as text with its domain named, no link. */
export async function urlDialog(page: Page, message: string, url: string) {
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText(message)
  await expect(dialog.locator('code.url')).toHaveText(url)
  await expect(dialog.getByTestId('url-domain')).toHaveText(`Domain: ${new URL(url).hostname}`)
  await expect(dialog.locator('a')).toHaveCount(0)
  return dialog
}
