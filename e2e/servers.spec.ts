// Each embedded server kind, end to end in the built page: connect, see the era, browse, call a tool, and see a
// change made from outside the page arrive without a reload.
import { connect, control, expect, field, item, openDemo, screenshot, tab, test, callAdder } from './helpers'

const CATALOGUE_SERVERS = [
  { kind: 'modern', era: 'modern', revision: /^2026-07-28$/, transport: 'Streamable HTTP' },
  { kind: 'legacy', era: 'legacy', revision: /^2025-\d\d-\d\d$/, transport: 'Streamable HTTP' },
  { kind: 'sse', era: 'legacy', revision: /^20(24|25)-\d\d-\d\d$/, transport: 'HTTP+SSE' },
]

for (const server of CATALOGUE_SERVERS) {
  test(`${server.kind}: connect, browse, call a tool, see a list change`, async ({ page, request, servers }) => {
    await control(request, servers[server.kind], 'reset')
    await openDemo(page)
    await connect(page, server.kind)

    await expect(page.getByTestId('era')).toHaveText(server.era)
    await expect(page.getByTestId('revision')).toHaveText(server.revision)
    await expect(page.locator('.badge-transport')).toHaveText(server.transport)
    await expect(page.getByTestId('server-name')).toContainText('nanomcp')
    await expect(page.getByTestId('capabilities')).toContainText('tools')
    if (server.era === 'legacy') await expect(page.getByText('fell back to the initialize handshake')).toBeVisible()

    // The lists load by themselves once they are on screen.
    await expect(item(page, 'echo')).toBeVisible()
    await expect(tab(page, 'tools')).toContainText('8')
    await expect(tab(page, 'prompts')).toContainText('1')

    await item(page, 'add').click()
    await field(page, 'a').fill('2')
    await field(page, 'b').fill('40')
    await page.getByRole('button', { name: 'Call tool' }).click()
    const result = page.getByTestId('tool-result')
    await expect(result.locator('.block-text pre')).toHaveText('42')
    await expect(result.locator('.block-structured pre')).toContainText('"sum": 42')

    const added = await control(request, servers[server.kind], 'add-tool')
    await expect(item(page, String(added.name))).toBeVisible({ timeout: 15_000 })
    await expect(tab(page, 'tools')).toContainText('9')
    await expect(page.getByTestId('transcript')).toContainText('tools/list')

    await screenshot(page, server.kind)
  })
}

test('legacy: a dropped session recovers and still hears list changes', async ({ page, request, servers }) => {
  const legacy = servers.legacy
  await control(request, legacy, 'reset')
  await openDemo(page)
  await connect(page, 'legacy')
  await expect(item(page, 'echo')).toBeVisible()
  await expect(page.getByTestId('subscription-status')).toHaveText('acknowledged', { timeout: 15_000 })

  const dropped = await control(request, legacy, 'drop-sessions')
  expect(Number(dropped.dropped)).toBeGreaterThan(0)

  // The session is gone on the server: the client must notice, start a new one, and listen again.
  const added = await control(request, legacy, 'add-tool')
  await expect(item(page, String(added.name))).toBeVisible({ timeout: 20_000 })

  await item(page, 'echo').click()
  await field(page, 'text').fill('after the drop')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toContainText('after the drop')
})

test('server-everything (Streamable HTTP): legacy fallback, tools, an image, a change it makes itself', async ({ page }) => {
  await openDemo(page)
  await connect(page, 'everything')
  await expect(page.getByTestId('era')).toHaveText('legacy')
  await expect(page.getByTestId('revision')).toHaveText(/^2025-\d\d-\d\d$/)
  await expect(page.getByTestId('server-name')).toContainText(/everything/i)

  await item(page, 'echo').click()
  await field(page, 'message').fill('hello everything')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toContainText('hello everything')

  // A long list gets a search box.
  await page.getByRole('searchbox', { name: 'Search' }).fill('tiny')
  await expect(page.getByTestId('items').getByRole('button')).toHaveCount(1)
  await item(page, 'get-tiny-image').click()
  await page.getByRole('searchbox', { name: 'Search' }).fill('')
  await page.getByRole('button', { name: 'Call tool' }).click()
  const image = page.getByTestId('tool-result').locator('img.media')
  await expect(image).toHaveAttribute('src', /^data:image\/png;base64,/)
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)

  // server-everything has no control endpoint; its gzip tool registers a session resource, which makes the
  // server announce that its resource list changed.
  await expect(tab(page, 'resources').locator('.count')).toHaveText(/^\d+$/)
  const before = Number((await tab(page, 'resources').locator('.count').textContent()) ?? 0)
  await tab(page, 'tools').click()
  await item(page, 'gzip-file-as-resource').click()
  await field(page, 'name').fill('e2e-note.txt.gz')
  await field(page, 'data').fill('data:text/plain;base64,aGVsbG8gZnJvbSB0aGUgZTJlIHRlc3Q=')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toContainText('demo://resource/session/e2e-note.txt.gz')
  await tab(page, 'resources').click()
  await expect(item(page, 'demo://resource/session/e2e-note.txt.gz')).toBeVisible({ timeout: 15_000 })
  await expect(tab(page, 'resources').locator('.count')).toHaveText(String(before + 1))

  await screenshot(page, 'everything')
})

test('server-everything (HTTP+SSE): connects over the 2024-11-05 transport', async ({ page }) => {
  await openDemo(page)
  await connect(page, 'everythingSse')
  await expect(page.getByTestId('era')).toHaveText('legacy')
  await expect(page.locator('.badge-transport')).toHaveText('HTTP+SSE')
  await callAdder(page, 'get-sum')
  await screenshot(page, 'everythingSse')
})
