// History: every call with its params, outcome and time; replay; copy as JSON; a raw-JSON editor for tool
// arguments beside the generated form; resource links in results open the resource.
import { connect, control, expect, field, item, openDemo, screenshot, test } from './helpers'

test('each call is kept with params, result and time; replay runs it again; copy gives JSON', async ({ page, context, request, servers }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await control(request, servers.modern, 'reset')
  await openDemo(page)
  await connect(page, 'modern')
  await item(page, 'echo').click()
  await field(page, 'text').fill('once')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toContainText('once')

  const entries = page.getByTestId('history-entry')
  await expect(entries).toHaveCount(1)
  const first = entries.first()
  await expect(first).toContainText('tools/call echo')
  await expect(first.getByTestId('history-status')).toHaveText('ok')
  await expect(first.locator('.elapsed')).toHaveText(/^\d+ ms$/)
  await first.locator('summary').click()
  await expect(first.getByTestId('history-params')).toContainText('"text": "once"')
  await expect(first.getByTestId('history-outcome')).toContainText('once')

  await first.getByRole('button', { name: 'Copy as JSON' }).click()
  await expect(first).toContainText('Copied.')
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as Record<string, unknown>
  expect(copied).toMatchObject({ method: 'tools/call', params: { name: 'echo', arguments: { text: 'once' } } })
  expect(typeof copied.ms).toBe('number')

  await first.getByRole('button', { name: 'Replay' }).click()
  await expect(entries).toHaveCount(2)
  await expect(entries.first().getByTestId('history-status')).toHaveText('ok')
  await expect(entries.first()).toContainText('tools/call echo')

  // A refused call is kept too, as an error: the tool is removed on the server while the page still shows it.
  await control(request, servers.modern, 'remove-tool?name=echo')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('error')).toContainText('JSON-RPC error')
  await expect(entries).toHaveCount(3)
  await expect(entries.first().getByTestId('history-status')).toHaveText('error')
  await entries.first().locator('summary').click()
  await expect(entries.first().getByTestId('history-outcome')).toContainText('RpcError')
  await screenshot(page, 'history')
})

test('the raw-JSON editor sends its object; invalid JSON is a message and the page stays usable', async ({ page, request, servers }) => {
  await control(request, servers.modern, 'reset')
  await openDemo(page)
  await connect(page, 'modern')
  await item(page, 'add').click()
  await field(page, 'a').fill('1')
  await field(page, 'b').fill('2')
  await page.locator('#detail details.raw-json > summary').click()
  // Opened, it starts from what the form holds.
  const editor = page.getByLabel('Arguments (JSON object)')
  await expect(editor).toHaveValue(/"a": 1/)
  await editor.fill('{"a": 40, "b": 2}')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result').locator('.block-text pre')).toHaveText('42')

  await editor.fill('{"a": 40, "b": ')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.locator('#detail .error-text')).toContainText('not valid JSON')
  await editor.fill('[1, 2]')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.locator('#detail .error-text')).toContainText('must be a JSON object')
  await editor.fill('{"a": 1, "b": 1}')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result').locator('.block-text pre')).toHaveText('2')
})

test('a resource link in a tool result opens and reads that resource', async ({ page }) => {
  await openDemo(page)
  await connect(page, 'everything')
  await page.getByRole('searchbox', { name: 'Search' }).fill('resource links')
  await item(page, 'get-resource-links').click()
  await page.getByRole('searchbox', { name: 'Search' }).fill('')
  const count = page.locator('#detail [name="count"]')
  if (await count.count()) await count.fill('1')
  await page.getByRole('button', { name: 'Call tool' }).click()
  const open = page.getByTestId('tool-result').getByTestId('open-resource').first()
  await expect(open).toBeVisible()
  const uri = (await page.getByTestId('tool-result').locator('.block-link code').first().textContent()) ?? ''
  expect(uri).toMatch(/^demo:\/\//)
  await open.click()
  await expect(page.locator('#detail h2')).toHaveText(uri)
  await expect(page.getByTestId('resource-result')).toContainText(uri)
  await expect(page.getByTestId('history-entry').first()).toContainText(`resources/read ${uri}`)
})
