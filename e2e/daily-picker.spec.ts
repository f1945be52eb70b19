// The picker: every entry works and has a human label, the README's server table lists exactly the picker's
// entries, and a typed URL starts on Auto (a 405 to POST points at HTTP+SSE instead of "check the path").
import { readFileSync } from 'node:fs'
import type { BrowserContext } from '@playwright/test'
import { expect, openDemo, test } from './helpers'
import { drivePopup } from './oauth-popup'

// The AS's dev views @import a web font: there is no internet here.
const noFonts = (context: BrowserContext) => context.route(/fonts\.(googleapis|gstatic)\.com/, (route) => route.abort())

/** The first column of the README's demo server table. */
function readmeLabels() {
  const readme = readFileSync('README.md', 'utf8')
  const section = readme.slice(readme.indexOf('## The demo page'))
  const table = section.slice(section.indexOf('| picker entry |'))
  const lines = table.split('\n').slice(2)
  const end = lines.findIndex((line) => !line.startsWith('|'))
  return lines.slice(0, end === -1 ? undefined : end).map((line) => line.split('|')[1]!.trim())
}

const pickerOptions = (page: import('@playwright/test').Page) =>
  page.locator('#server-pick option').evaluateAll((options) =>
    (options as HTMLOptionElement[]).filter((o) => o.value).map((o) => ({ kind: o.value, label: o.textContent ?? '' })),
  )

test('the README server table matches the picker, and every entry has a human label', async ({ page }) => {
  await openDemo(page)
  const options = await pickerOptions(page)
  expect(options.length).toBe(10)
  for (const { kind, label } of options) expect(label, kind).not.toBe(kind)
  expect(readmeLabels()).toEqual(options.map((o) => o.label))
})

test('every picker entry works: servers connect (signing in where asked), the fault shows its diagnosis', async ({ page, context }) => {
  test.setTimeout(240_000)
  await noFonts(context)
  await openDemo(page)
  const options = await pickerOptions(page)
  const seen: string[] = []
  for (const { kind } of options) {
    await page.getByLabel('Server', { exact: true }).selectOption(kind)
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    if (kind === 'faults') {
      await expect(page.getByTestId('diagnosis')).toHaveText(/does not allow CORS from this origin/, { timeout: 20_000 })
    } else if (kind.startsWith('protected')) {
      await expect(page.getByTestId('auth-state')).toContainText('wants you to sign in', { timeout: 20_000 })
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('sign-in').click()])
      await drivePopup(popup)
      await expect(page.getByTestId('era')).toHaveText(kind === 'protected' ? 'modern' : 'legacy', { timeout: 20_000 })
      await expect(page.getByTestId('items').locator('button.item').first()).toBeVisible()
    } else {
      await expect(page.getByTestId('era')).toBeVisible({ timeout: 20_000 })
      await expect(page.getByTestId('items').locator('button.item').first()).toBeVisible({ timeout: 20_000 })
    }
    seen.push(kind)
  }
  expect(seen).toEqual(options.map((o) => o.kind))
})

test('a typed URL starts on Auto; a 405 to POST suggests HTTP+SSE', async ({ page, servers }) => {
  await openDemo(page)
  const transport = page.getByLabel('Transport')
  await expect(transport).toHaveValue('http')
  await page.getByLabel('MCP server URL').fill(servers.sse!.url)
  await expect(transport).toHaveValue('auto')
  await expect(page.getByLabel('Server', { exact: true })).toHaveValue('')
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByTestId('era')).toHaveText('legacy', { timeout: 20_000 })
  await expect(page.locator('.badge-transport')).toHaveText('HTTP+SSE')

  await transport.selectOption('http')
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByTestId('hint-sse')).toContainText('pick Transport “HTTP+SSE” or “Auto”', { timeout: 20_000 })
  await expect(page.getByTestId('error')).not.toContainText('Check the path')
})
