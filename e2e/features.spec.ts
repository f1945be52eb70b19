// The page's features against the modern server: elicitation, prompts, resources and their updates, results
// and errors, server strings as data, and a server that CORS blocks.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect, control, expect, field, item, openDemo, screenshot, tab, test } from './helpers'

test.describe('modern server', () => {
  test.beforeEach(async ({ page, request, servers }) => {
    await control(request, servers.modern, 'reset')
    await openDemo(page)
    await connect(page, 'modern')
    await expect(item(page, 'ask_name')).toBeVisible()
  })

  test('elicitation: accept, decline and cancel each complete the round', async ({ page }) => {
    await item(page, 'ask_name').click()
    const dialog = page.getByRole('dialog')

    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('What is your name?')
    await expect(dialog).toContainText('nanomcp-modern')
    await dialog.getByLabel('Name').fill('Ada')
    await screenshot(page, 'elicitation', false)
    await dialog.getByRole('button', { name: 'Accept' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByTestId('tool-result')).toHaveText(/Hello, Ada/)
    // The retry went out as a new request carrying the answer.
    await expect(page.getByTestId('transcript')).toContainText('input_required')

    await page.getByRole('button', { name: 'Call tool' }).click()
    await dialog.getByRole('button', { name: 'Decline' }).click()
    await expect(page.getByTestId('tool-result')).toHaveText(/declined/)

    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(dialog).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('tool-result')).toHaveText(/cancelled/)
  })

  test('elicitation: a required field is enforced before accepting', async ({ page }) => {
    await item(page, 'ask_name').click()
    await page.getByRole('button', { name: 'Call tool' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Accept' }).click()
    await expect(dialog).toBeVisible()
    await dialog.getByLabel('Name').fill('Grace')
    await dialog.getByRole('button', { name: 'Accept' }).click()
    await expect(page.getByTestId('tool-result')).toHaveText(/Hello, Grace/)
  })

  test('prompts and resource templates', async ({ page }) => {
    await tab(page, 'prompts').click()
    await item(page, 'greet').click()
    await field(page, 'name').fill('Ada')
    await page.getByRole('button', { name: 'Get prompt' }).click()
    await expect(page.getByTestId('prompt-result')).toContainText('Greet Ada in a friendly style.')
    await expect(page.getByTestId('prompt-result').locator('.role')).toHaveText('user')

    await tab(page, 'resourceTemplates').click()
    await item(page, 'nanomcp://notes/{id}').click()
    await field(page, 'id').fill('todo')
    await page.getByRole('button', { name: 'Read' }).click()
    await expect(page.getByTestId('resource-result')).toContainText('Note todo')
    await expect(page.locator('#detail')).toContainText('nanomcp://notes/todo')
  })

  test('resources: text, binary, and a watched resource re-read on update', async ({ page, request, servers }) => {
    await tab(page, 'resources').click()
    await item(page, 'nanomcp://files/pixel.png').click()
    await page.getByRole('button', { name: 'Read', exact: true }).click()
    const pixel = page.getByTestId('resource-result').locator('img.media')
    await expect(pixel).toHaveAttribute('src', /^data:image\/png;base64,/)
    expect(await pixel.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1)

    await item(page, 'nanomcp://notes/readme').click()
    await page.getByRole('button', { name: 'Read', exact: true }).click()
    await expect(page.getByTestId('resource-result')).toContainText('revision 0')
    await page.getByRole('button', { name: 'Watch for updates' }).click()
    await expect(page.getByTestId('subscription-status')).toHaveText('acknowledged')
    await expect(page.locator('#subscription')).toContainText('nanomcp://notes/readme')

    await control(request, servers.modern, 'touch')
    await expect(page.getByTestId('resource-updates')).toContainText('Updated 1 time')
    await expect(page.getByTestId('resource-result')).toContainText('revision 1')
    await expect(page.getByTestId('notifications')).toContainText('notifications/resources/updated')

    await page.getByRole('button', { name: 'Stop watching' }).click()
    await expect(page.getByRole('button', { name: 'Watch for updates' })).toHaveAttribute('aria-pressed', 'false')
  })

  test('a long call shows its progress and can be cancelled', async ({ page }) => {
    await item(page, 'slow_count').click()
    await field(page, 'steps').fill('6')
    await field(page, 'delayMs').fill('600')
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.locator('#detail .busy')).toContainText(/step \d of 6/)
    await expect(page.getByRole('progressbar')).toBeVisible()
    await expect(page.getByTestId('tool-result')).toContainText('counted to 6')

    await field(page, 'steps').fill('100')
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.locator('#detail .busy')).toContainText(/step \d+ of 100/)
    await page.getByRole('button', { name: 'Cancel' }).click()
    // The user's own Cancel is an outcome, not an error.
    await expect(page.getByTestId('cancelled')).toContainText('Cancelled')
    await expect(page.locator('#detail [data-testid="error"]')).toHaveCount(0)
  })

  test('a JSON-RPC error is shown as the server refusing, not as a tool result', async ({ page, request, servers }) => {
    // Removed on the server while the page still shows it: the modern server refuses the call (-32602).
    await item(page, 'echo').click()
    await control(request, servers.modern, 'remove-tool?name=echo')
    await expect(item(page, 'echo')).toHaveCount(0, { timeout: 15_000 })
    await field(page, 'text').fill('gone')
    await page.getByRole('button', { name: 'Call tool' }).click()
    const error = page.getByTestId('error')
    await expect(error).toContainText('JSON-RPC error -32602')
    await expect(error).toContainText('did not run')
    await expect(page.getByTestId('tool-result')).toHaveCount(0)
  })

  test('server strings are rendered as text, never as markup', async ({ page }) => {
    const markupTool = item(page, 'markup_tool')
    await expect(markupTool).toContainText('<img src=x onerror="window.__xss=1">')
    await expect(markupTool).toContainText('<script>window.__xss=2</script>')
    await markupTool.click()
    await expect(page.locator('#detail h2')).toContainText('<script>')
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByTestId('tool-result')).toContainText('never as markup: <img')

    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined()
    await expect(page.locator('img[src="x"]')).toHaveCount(0)
    expect(await page.locator('script').evaluateAll((scripts) => scripts.filter((s) => s.textContent?.includes('__xss')).length)).toBe(0)
  })
})

test('legacy server: a tool that fails reports isError, shown apart from protocol errors', async ({ page, request, servers }) => {
  await control(request, servers.legacy, 'reset')
  await openDemo(page)
  // Opted out of elicitation for older servers, ask_name cannot ask anyone: the tool runs and reports that as
  // its own error, and the page names the toggle that would have let it ask.
  await page.locator('#options > summary').click()
  await page.getByLabel('Answer sampling, input and roots requests from older servers').uncheck()
  await connect(page, 'legacy')

  await item(page, 'ask_name').click()
  await page.getByRole('button', { name: 'Call tool' }).click()
  const result = page.getByTestId('tool-result')
  await expect(result).toHaveClass(/result-tool-error/)
  await expect(result).toContainText('isError: true')
  await expect(result).toContainText('ask_name needs elicitation')
  await expect(page.getByTestId('capability-hint')).toContainText('asked for input (elicitation)')
  await expect(page.getByTestId('error')).toHaveCount(0)
})

test('the hosted page, without embedded servers, explains a CORS refusal', async ({ page }) => {
  // A server that knows nothing of CORS, like @modelcontextprotocol/server without a wrapper.
  const bare: Server = createServer((req, res) => res.writeHead(req.method === 'OPTIONS' ? 405 : 200).end('{}'))
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve))
  try {
    const url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/mcp`
    await page.goto('./')
    await expect(page.getByLabel('Server', { exact: true })).toBeHidden()
    await page.getByLabel('MCP server URL').fill(url)
    await page.getByRole('button', { name: 'Connect' }).click()
    const error = page.getByTestId('error')
    await expect(error).toContainText('CORS', { timeout: 15_000 })
    await expect(error.locator('pre.cors')).toContainText('Access-Control-Allow-Headers: Content-Type, Accept, MCP-Protocol-Version')
    await expect(error.locator('pre.cors')).toContainText('Access-Control-Expose-Headers: Mcp-Session-Id')
    await expect(error.locator('pre.cors')).toContainText(`Access-Control-Allow-Origin: ${new URL(page.url()).origin}`)
    await expect(page.getByRole('button', { name: 'Disconnect' })).toBeHidden()
    await expect(page.getByTestId('transcript')).toContainText('server/discover')
    await screenshot(page, 'cors-error')
  } finally {
    await new Promise((resolve) => bare.close(resolve))
  }
})
