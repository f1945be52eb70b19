// The page for people: keyboard only, labelled controls, and how it looks on a desktop and on a phone.
import { connect, control, expect, field, item, openDemo, screenshot, test, callAdder } from './helpers'

test('keyboard only: connect, pick a tool, call it', async ({ page, request, servers }) => {
  await control(request, servers.modern, 'reset')
  await openDemo(page)
  await page.getByLabel('Server', { exact: true }).focus()
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('MCP server URL')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('era')).toHaveText('modern')

  await item(page, 'echo').focus()
  await expect(item(page, 'echo')).toBeFocused()
  // The focus ring is visible (an outline, not just the browser default on mouse focus).
  expect(await item(page, 'echo').evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none')
  await page.keyboard.press('Enter')
  await expect(item(page, 'echo')).toHaveAttribute('aria-current', 'true')
  await expect(item(page, 'echo')).toBeFocused()

  await field(page, 'text').focus()
  await page.keyboard.type('typed, not clicked')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('tool-result')).toContainText('typed, not clicked')
})

test('every form control has a label', async ({ page }) => {
  await openDemo(page)
  await connect(page, 'modern')
  await item(page, 'slow_count').click()
  const unlabelled = await page.locator('input, select, textarea').evaluateAll((controls) =>
    controls
      .filter((c) => (c as HTMLInputElement).type !== 'hidden')
      .filter((c) => !(c as HTMLInputElement).labels?.length && !c.getAttribute('aria-label'))
      .map((c) => c.outerHTML),
  )
  expect(unlabelled).toEqual([])
})

test('desktop 1280×800 and phone 390 px screenshots', async ({ page, request, servers }) => {
  await control(request, servers.modern, 'reset')
  await page.setViewportSize({ width: 1280, height: 800 })
  await openDemo(page)
  await connect(page, 'modern')
  await callAdder(page, 'add')
  await page.evaluate(() => window.scrollTo(0, 0))
  await screenshot(page, 'desktop-1280x800', false)

  await page.setViewportSize({ width: 390, height: 844 })
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(overflow, 'horizontal scrolling on a phone').toBeLessThanOrEqual(0)
  await page.evaluate(() => window.scrollTo(0, 0))
  await screenshot(page, 'phone-390', false)
  await screenshot(page, 'phone-390-full')
})
