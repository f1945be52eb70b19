// The Chat panel against the modern embedded server and a scripted OpenAI-compatible endpoint: the model calls a
// tool, the user approves it, the server runs it, the result goes back to the model and its answer shows. The key
// goes to the model's endpoint only.
import { connect, control, expect, openDemo, screenshot, test } from './helpers'
import { startOpenAiStandIn, type StandIn } from './openai-stand-in'

const KEY = 'sk-test-kept-in-memory'
let model: StandIn

test.beforeEach(async ({ page, request, servers }) => {
  await control(request, servers.modern, 'reset')
  model = await startOpenAiStandIn({ name: 'echo', arguments: { text: 'hello from the model' } })
  await page.setViewportSize({ width: 1280, height: 800 })
  await openDemo(page)
  await connect(page, 'modern')
  const chat = page.getByTestId('chat')
  await expect(chat).toBeVisible()
  await expect(page.getByTestId('chat-tools').locator('[data-tool="echo"]')).toBeChecked()
  await chat.getByLabel('Endpoint').fill(model.endpoint)
  await chat.getByLabel('API key').fill(KEY)
  await chat.getByLabel('Ask me before every call').check()
})
test.afterEach(() => model.close())

test('a tool call: approved, run on the server, its result back to the model', async ({ page, servers }) => {
  const keyWentTo = new Set<string>()
  page.on('request', (request) => {
    if (JSON.stringify(request.headers()).includes(KEY)) keyWentTo.add(new URL(request.url()).origin)
  })
  const chat = page.getByTestId('chat')
  await expect(page.getByTestId('chat-key-note')).toContainText('sent only to the endpoint')
  await chat.getByLabel('Message').fill('Please echo a greeting')
  await chat.getByRole('button', { name: 'Send' }).click()
  const approval = page.getByTestId('chat-approval')
  await expect(approval).toBeVisible()
  await expect(page.getByTestId('chat-log')).toContainText('Model calls echo')
  await expect(page.getByTestId('chat-log')).toContainText('hello from the model')
  await chat.scrollIntoViewIfNeeded()
  await screenshot(page, 'chat', false)
  await approval.getByRole('button', { name: 'Allow' }).click()
  await expect(page.getByTestId('chat-result')).toContainText('hello from the model')
  await expect(page.getByTestId('chat-log').locator('.chat-model')).toContainText('The tool answered:')

  expect(model.requests).toHaveLength(2)
  const [first, second] = model.requests
  expect(first!.headers.authorization).toBe(`Bearer ${KEY}`)
  expect(first!.body.tools.map((t: any) => t.function.name)).toContain('echo')
  const toolMessage = second!.body.messages.at(-1)
  expect(toolMessage).toMatchObject({ role: 'tool', tool_call_id: 'call_1' })
  expect(toolMessage.content).toContain('hello from the model')
  expect([...keyWentTo]).toEqual([new URL(model.endpoint).origin])
  expect(new URL(servers.modern!.url).origin).not.toBe(new URL(model.endpoint).origin)
})

test('a declined call sends nothing to the server, and the model is told', async ({ page, request, servers }) => {
  await request.post(`${servers.modern!.control}/control/stats/reset`)
  const chat = page.getByTestId('chat')
  await chat.getByLabel('Message').fill('Please echo a greeting')
  await chat.getByRole('button', { name: 'Send' }).click()
  await page.getByTestId('chat-approval').getByRole('button', { name: 'Deny' }).click()
  await expect(page.getByTestId('chat-log').locator('.chat-model')).toContainText('declined')
  const stats = await (await request.get(`${servers.modern!.control}/control/stats`)).json()
  expect(stats.byMethod['tools/call']).toBeUndefined()
})

test('the same loop with the Anthropic Messages format', async ({ page }) => {
  const chat = page.getByTestId('chat')
  await chat.getByLabel('Provider').selectOption('anthropic')
  await chat.getByLabel('Endpoint').fill(model.endpoint)
  await chat.getByLabel('Message').fill('Please echo a greeting')
  await chat.getByRole('button', { name: 'Send' }).click()
  await page.getByTestId('chat-approval').getByRole('button', { name: 'Allow' }).click()
  await expect(page.getByTestId('chat-log').locator('.chat-model')).toContainText('The tool answered: hello from the model')
  const [first, second] = model.requests
  expect(first!.headers['x-api-key']).toBe(KEY)
  expect(first!.headers.authorization).toBeUndefined()
  expect(first!.body.tools.map((t: any) => t.name)).toContain('echo')
  expect(second!.body.messages.at(-1).content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' })
})
