// Logs and health: the log level is asked per request on 2026-07-28 and with logging/setLevel on older servers;
// a ping on older servers, server/discover on newer ones.
import { connect, control, expect, field, item, openDemo, test } from './helpers'

async function chooseLogLevel(page: import('@playwright/test').Page, level: string) {
  await page.locator('#options > summary').click()
  await page.getByLabel('Server log level').selectOption(level)
}

test('modern: every call asks for the chosen log level; server/discover is one click away', async ({ page, request, servers }) => {
  await control(request, servers.modern, 'reset')
  await openDemo(page)
  await chooseLogLevel(page, 'debug')
  await connect(page, 'modern')
  await item(page, 'echo').click()
  await field(page, 'text').fill('logged')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toContainText('logged')
  const call = page.getByTestId('transcript').locator('li', { hasText: /→.*tools\/call echo/ }).first()
  await call.locator('summary').click()
  await expect(call.locator('pre')).toContainText('logLevel')
  await expect(call.locator('pre')).toContainText('"debug"')

  await page.getByRole('button', { name: 'Ask server/discover' }).click()
  await expect(page.getByTestId('health')).toContainText('2026-07-28')
})

test('older server: logging/setLevel once after connecting, and a ping that answers', async ({ page }) => {
  await openDemo(page)
  await chooseLogLevel(page, 'info')
  await connect(page, 'everything')
  await expect(page.getByTestId('era')).toHaveText('legacy')
  const setLevel = page.getByTestId('history-entry').filter({ hasText: 'logging/setLevel' })
  await expect(setLevel.getByTestId('history-status')).toHaveText('ok')
  await page.getByRole('button', { name: 'Ping' }).click()
  await expect(page.getByTestId('health')).toContainText(/Answered ping in \d+ ms/)
  // Remembered with the other options.
  await page.reload()
  await page.locator('#options > summary').click()
  await expect(page.getByLabel('Server log level')).toHaveValue('info')
})
