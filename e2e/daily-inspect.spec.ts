// The demo as a daily inspector: raw JSON sends what it holds, older servers' sampling works by default (and says
// which toggle when it is off), the outcome of what the user just did is on screen on a laptop and a phone,
// replay shows its own result, and the polish items (layout, Markdown, times, annotations, blobs, cancel, raw view).
import type { Page } from '@playwright/test'
import { connect, control, expect, field, item, openDemo, tab, test, callAdder } from './helpers'
import { callTool, connectTo, inputKinds } from './input-kinds-kit'

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const

const TOGGLE = 'Answer sampling, input and roots requests from older servers'

test('raw JSON sends arguments the form would refuse, and the server\'s error shows', async ({ page }) => {
  await openDemo(page)
  await connect(page, 'modern')
  await item(page, 'add').click()
  await expect(field(page, 'a')).toHaveAttribute('required', '')
  await page.getByText('Edit arguments as JSON').click()
  await page.getByLabel('Arguments (JSON object)').fill('{"a": 1}')
  await page.getByRole('button', { name: 'Call tool' }).click()
  // It reached the server: the history holds exactly what was sent, and the server's refusal is on screen.
  await expect(page.getByTestId('history-status').first()).toHaveText(/error|isError/, { timeout: 15_000 })
  await expect(page.getByTestId('history-params').first()).toHaveText(JSON.stringify({ name: 'add', arguments: { a: 1 } }, null, 2))
  const outcome = page.locator('#detail .output')
  await expect(outcome.locator('[data-testid="error"], .result-tool-error')).toBeVisible()
  await expect(outcome).toContainText(/\bb\b/)
  await expect(outcome).toBeInViewport()
})

test('an older server\'s sampling tool works by default; off, its failure names the toggle', async ({ page, servers }) => {
  await openDemo(page)
  await page.locator('#options > summary').click()
  await expect(page.getByLabel(TOGGLE)).toBeChecked()
  await page.locator('#options > summary').click()
  await connectTo(page, inputKinds(servers.legacy))
  await expect(page.getByTestId('era')).toHaveText('legacy')
  await callTool(page, 'ask_llm')
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Reply (as the assistant)').fill('by default')
  await dialog.getByRole('button', { name: 'Approve and send' }).click()
  await expect(page.getByTestId('tool-result')).toHaveText(/said: by default/)

  await page.locator('#options > summary').click()
  await page.getByLabel(TOGGLE).uncheck()
  await page.locator('#options > summary').click()
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByTestId('era')).toHaveText('legacy', { timeout: 15_000 })
  await callTool(page, 'ask_llm')
  await expect(page.getByTestId('tool-result')).toContainText('needs the sampling capability')
  const hint = page.getByTestId('capability-hint')
  await expect(hint).toContainText(`turn on “${TOGGLE}”`)
  await expect(hint).toBeInViewport()
  await hint.getByRole('button', { name: 'Show the option' }).click()
  await expect(page.getByLabel(TOGGLE)).toBeFocused()
  await expect(page.getByLabel(TOGGLE)).toBeInViewport()
})

for (const size of SIZES) {
  test(`${size.name} ${size.width}×${size.height}: a call's result and a connection error are on screen without scrolling`, async ({ page, request, servers }) => {
    await control(request, servers.modern, 'reset')
    await page.setViewportSize(size)
    await openDemo(page)
    // A connection error lands where the user looks, not under the intro card.
    await page.getByLabel('Server', { exact: true }).selectOption('faults')
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    await expect(page.getByTestId('diagnosis')).toBeInViewport({ timeout: 20_000 })

    await connect(page, 'modern')
    await callAdder(page, 'add')
    await expect(page.getByTestId('tool-result')).toBeInViewport()
    // A longer form (everything's tools have descriptions under each field) too.
    await connect(page, 'everything')
    await item(page, 'get-annotated-message').click()
    await field(page, 'messageType').selectOption('success')
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByTestId('tool-result')).toBeInViewport({ timeout: 15_000 })
  })
}

test('replay shows its own result where the user looks: its entry opens, in view, with the result', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await openDemo(page)
  await connect(page, 'modern')
  await item(page, 'echo').click()
  for (const text of ['first', 'second', 'third']) {
    await field(page, 'text').fill(text)
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByTestId('tool-result')).toContainText(text)
  }
  const entries = page.getByTestId('history-entry')
  await expect(entries).toHaveCount(3)
  // The last entry stays the oldest once the replay is prepended above it.
  const oldest = entries.last()
  await oldest.locator('summary').click()
  await oldest.getByRole('button', { name: 'Replay' }).click()
  await expect(entries).toHaveCount(4)
  const replayed = entries.first()
  await expect(replayed).toHaveClass(/replayed/)
  await expect(replayed.locator('details')).toHaveAttribute('open', '')
  await expect(replayed.getByTestId('history-outcome')).toContainText('first')
  await expect(replayed.getByTestId('history-outcome')).toBeInViewport()
  await expect(oldest).toContainText('Replayed: the result is open at the top of the history.')
})

test('a second tab from a shared link joins the shared client; the choice is remembered', async ({ page, context, request, servers }) => {
  await control(request, servers.modern, 'stats/reset')
  await openDemo(page)
  await page.locator('#options > summary').click()
  await page.getByLabel('Share one connection across tabs').check()
  await connect(page, 'modern')
  await expect(page.locator('#server')).toContainText('shared across tabs')
  await expect(page).toHaveURL(/[?&]shared=1(&|$)/)
  await expect(item(page, 'echo')).toBeVisible()
  const stats = async () => (await (await request.get(`${servers.modern!.control}/control/stats`)).json()) as { byMethod: Record<string, number> }
  const first = await stats()

  const second = await context.newPage()
  const errors: string[] = []
  second.on('pageerror', (error) => errors.push(error.message))
  await second.goto(page.url())
  await expect(second.getByTestId('era')).toHaveText('modern', { timeout: 20_000 })
  await expect(second.locator('#server')).toContainText('shared across tabs')
  await expect(item(second, 'echo')).toBeVisible()
  await second.locator('#options > summary').click()
  await expect(second.getByLabel('Share one connection across tabs')).toBeChecked()
  // Joined, not a second client: no new handshake and no second load of the tool list reached the server.
  const after = await stats()
  expect(after.byMethod['server/discover'] ?? 0).toBe(first.byMethod['server/discover'] ?? 0)
  expect(after.byMethod['tools/list'] ?? 0).toBe(first.byMethod['tools/list'] ?? 0)
  await item(second, 'echo').click()
  await field(second, 'text').fill('from the joined tab')
  await second.getByRole('button', { name: 'Call tool' }).click()
  await expect(second.getByTestId('tool-result')).toContainText('from the joined tab')
  expect(errors).toEqual([])
  await second.close()

  // Remembered without a link as well.
  await openDemo(page)
  await page.locator('#options > summary').click()
  await expect(page.getByLabel('Share one connection across tabs')).toBeChecked()
})

async function readClipboard(page: Page) {
  return page.evaluate(() => navigator.clipboard.readText())
}

test('polish: Markdown instructions, annotations, a text blob, raw JSON beside a result, rounded ms, 24-hour times', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await openDemo(page)
  await connect(page, 'everything')
  // Instructions: Markdown rendered (headings, lists, code), none of its syntax left as text.
  const instructions = page.getByTestId('instructions')
  await expect(instructions.locator('h4').first()).toHaveText('Everything Server – Server Instructions')
  await expect(instructions.locator('li code').first()).toBeVisible()
  await expect(instructions).not.toContainText('## ')

  // Content annotations, and the raw JSON view beside the rendered result.
  await item(page, 'get-annotated-message').click()
  await field(page, 'messageType').selectOption('error')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('annotations')).toHaveText('for user and assistant · priority 1')
  await page.getByTestId('raw-result').locator('summary').click()
  await expect(page.getByTestId('raw-result').locator('pre')).toContainText('"annotations"')

  // A text/plain blob shows as its text.
  await tab(page, 'resourceTemplates').click()
  await page.locator('button.item[data-name*="/blob/"]').click()
  await field(page, 'resourceId').fill('7')
  await page.getByRole('button', { name: 'Read' }).click()
  await expect(page.getByTestId('blob-text')).toContainText('Resource 7: This is a base64 blob')

  // Copy as JSON: whole milliseconds.
  const entry = page.getByTestId('history-entry').first()
  await entry.locator('summary').click()
  await entry.getByRole('button', { name: 'Copy as JSON' }).click()
  await expect(entry).toContainText('Copied.')
  const copied = JSON.parse(await readClipboard(page)) as { ms: number }
  expect(Number.isInteger(copied.ms)).toBe(true)

  // Every time on the page in one 24-hour format.
  const times = await page.locator('.time').allTextContents()
  expect(times.length).toBeGreaterThan(3)
  for (const time of times) expect(time).toMatch(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{3})?$/)
})

test('polish: a cancelled call is recorded as cancelled, not as an error', async ({ page }) => {
  await openDemo(page)
  await connect(page, 'modern')
  await item(page, 'slow_count').click()
  await field(page, 'steps').fill('100')
  await field(page, 'delayMs').fill('200')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await page.locator('#detail .output').getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByTestId('cancelled')).toBeVisible()
  await expect(page.locator('#detail .output [data-testid="error"]')).toHaveCount(0)
  await expect(page.getByTestId('history-status').first()).toHaveText('cancelled')
})

for (const size of SIZES) {
  test(`polish ${size.name}: boolean fields sit beside their label, and no picker or transport option is cut off`, async ({ page }) => {
    await page.setViewportSize(size)
    await openDemo(page)
    await page.screenshot({ path: `test-results/screenshots/picker-${size.name}.png`, clip: { x: 0, y: 0, width: size.width, height: 260 } })
    for (const id of ['server-pick', 'transport']) {
      const cut = await page.locator(`#${id}`).evaluate((select: HTMLSelectElement) => {
        const style = getComputedStyle(select)
        const context = document.createElement('canvas').getContext('2d')!
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
        const widest = Math.max(...[...select.options].map((o) => context.measureText(o.text).width))
        // Padding on both sides and the arrow (16 px) come on top of the text.
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16
        return { widest, room }
      })
      expect(cut.widest, `#${id}: widest option vs room for it`).toBeLessThanOrEqual(cut.room)
    }
    await connect(page, 'everything')
    await item(page, 'get-annotated-message').click()
    const box = await field(page, 'includeImage').boundingBox()
    const label = await page.locator('#detail label', { hasText: 'includeImage' }).boundingBox()
    expect(box && label).toBeTruthy()
    // On one line, the box first.
    expect(Math.abs(box!.y + box!.height / 2 - (label!.y + label!.height / 2))).toBeLessThan(6)
    expect(box!.x).toBeLessThan(label!.x)
    const hint = await page.locator('#detail .field.check .hint').first().boundingBox()
    expect(hint!.y).toBeGreaterThan(label!.y)
  })
}

test('bad input: hostile Markdown instructions render as inert text and safe links', async ({ page, servers }) => {
  const hostile = [
    '# Welcome',
    '<script>window.__instructions = 1</script>',
    '<img src=x onerror="window.__instructions = 2">',
    '[click me](javascript:window.__instructions=3) and [docs](https://example.com/docs)',
    '![a huge image](https://example.com/huge.png)',
  ].join('\n\n')
  // The legacy server's real initialize answer, with its instructions swapped for the hostile text.
  await page.route(servers.legacy!.url, async (route) => {
    // Only the POSTs: a GET is a stream that stays open, which route.fetch() would wait on forever.
    if (route.request().method() !== 'POST') return route.continue()
    const response = await route.fetch()
    const body = await response.text()
    const swapped = body.replace(/"instructions":"(?:[^"\\]|\\.)*"/, `"instructions":${JSON.stringify(hostile)}`)
    await route.fulfill({ response, body: swapped })
  })
  let fetchedImage = false
  await page.context().route('https://example.com/**', (route) => ((fetchedImage = true), route.abort()))
  await openDemo(page)
  await connect(page, 'legacy')
  const instructions = page.getByTestId('instructions')
  await expect(instructions.locator('h4')).toHaveText('Welcome')
  await expect(instructions).toContainText('<script>window.__instructions = 1</script>')
  await expect(instructions).toContainText('<img src=x onerror=')
  await expect(instructions.locator('script, img, [onerror]')).toHaveCount(0)
  expect(await instructions.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
    'https://example.com/docs',
    'https://example.com/huge.png',
  ])
  await expect(instructions.locator('a').last()).toHaveText('a huge image (image)')
  await expect(instructions).toContainText('click me')
  expect(await page.evaluate(() => (window as { __instructions?: unknown }).__instructions)).toBeUndefined()
  expect(fetchedImage).toBe(false)
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})
