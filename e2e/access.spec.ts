// Layout and access: the catalogue is on the first screen of a laptop, a phone never scrolls sideways, and axe
// finds no serious or critical violation in the page's main states.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { connect, control, expect, field, item, openDemo, screenshot, test } from './helpers'

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

for (const kind of ['modern', 'everything'] as const) {
  test(`1280×800: the first catalogue items of the ${kind} server are visible without scrolling`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await openDemo(page)
    await connect(page, kind)
    const first = page.getByTestId('items').locator('button.item')
    await expect(first.nth(2)).toBeVisible()
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
    for (const n of [0, 1, 2]) await expect(first.nth(n)).toBeInViewport({ ratio: 1 })
    await screenshot(page, `fold-1280x800-${kind}`, false)
  })
}

test('390×844: no sideways scrolling on the first screen, connected, with a result, and on an error', async ({ page, request, servers }) => {
  await control(request, servers.modern, 'reset')
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('./')
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)
  await page.locator('#options > summary').click()
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)

  await openDemo(page)
  await connect(page, 'everything')
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)
  await connect(page, 'modern')
  await item(page, 'markup_tool').click()
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toBeVisible()
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)
  await screenshot(page, 'phone-390x844-result')

  await page.getByLabel('MCP server URL').fill('http://127.0.0.1:9/mcp')
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByTestId('error')).toBeVisible({ timeout: 20_000 })
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)
})

// axe is slow on a busy machine: one state per test, each with room to run.
test.describe('axe: no serious or critical violation', () => {
  test.beforeEach(() => test.setTimeout(120_000))

  test('on the first screen, options open', async ({ page }) => {
    await page.goto('./')
    await page.locator('#options > summary').click()
    expect(await seriousViolations(page)).toEqual([])
  })

  test('connected, with a result, and in the elicitation dialog', async ({ page, request, servers }) => {
    await control(request, servers.modern, 'reset')
    await openDemo(page)
    await connect(page, 'modern')
    await item(page, 'slow_count').click()
    await field(page, 'steps').fill('2')
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByTestId('tool-result')).toBeVisible()
    expect(await seriousViolations(page), 'connected, with a result').toEqual([])

    await item(page, 'ask_name').click()
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    expect(await seriousViolations(page), 'elicitation dialog').toEqual([])
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()
  })

  test('on a connection error', async ({ page }) => {
    await page.goto('./')
    await page.getByLabel('MCP server URL').fill('http://127.0.0.1:9/mcp')
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    await expect(page.getByTestId('error')).toBeVisible({ timeout: 20_000 })
    expect(await seriousViolations(page)).toEqual([])
  })
})
