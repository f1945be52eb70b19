// Every kind of input a 2026-07-28 server can ask for, answered through the page: sampling (shown, written,
// approved or declined), roots (the user's list), URL-mode elicitation (consent, then a new tab); and the page
// declares exactly those capabilities, while an older server is offered none of them unless the user opts in
// (then form and URL elicitation, sampling and roots, each answered through the same dialogs, and a request refused
// with -32042 retried once its URL elicitation is accepted); tools run as tasks show their status and can be cancelled.
import AxeBuilder from '@axe-core/playwright'
import type { Page, Request } from '@playwright/test'
import { connect, expect, field, item, openDemo, screenshot, test, type ServerEntry } from './helpers'

const CAPS = 'io.modelcontextprotocol/clientCapabilities'

/** The modern server's scope that serves ask_llm, list_roots and open_consent (scripts/servers/input-kinds.mjs). */
function inputKinds(modern: ServerEntry | undefined): string {
  if (!modern) throw new Error('no modern server')
  const url = new URL(modern.url)
  return `${url.origin}/s/input-kinds${url.pathname}`
}

async function connectTo(page: Page, url: string) {
  await page.getByLabel('MCP server URL').fill(url)
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByTestId('era')).toBeVisible({ timeout: 15_000 })
}

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

const bodies = (requests: Request[]) =>
  requests.flatMap((r) => {
    try {
      return r.method() === 'POST' ? [JSON.parse(r.postData() ?? '') as { method?: string; params?: Record<string, unknown> }] : []
    } catch {
      return []
    }
  })

async function callTool(page: Page, name: string) {
  await item(page, name).click()
  await page.getByRole('button', { name: 'Call tool' }).click()
}

test.describe('2026-07-28: every input kind', () => {
  test.beforeEach(async ({ page, servers }) => {
    await openDemo(page)
    await connectTo(page, inputKinds(servers.modern))
    await expect(item(page, 'ask_llm')).toBeVisible()
  })

  test('declares form and URL elicitation, sampling, roots and the tasks extension on every request, and nothing else', async ({ page }) => {
    const sent: Request[] = []
    page.on('request', (r) => sent.push(r))
    await callTool(page, 'list_roots')
    await expect(page.getByTestId('tool-result')).toBeVisible()
    const calls = bodies(sent).filter((b) => b.method === 'tools/call')
    expect(calls.length).toBeGreaterThan(0)
    for (const call of calls) {
      const meta = call.params?._meta as Record<string, unknown>
      expect(meta[CAPS]).toEqual({ elicitation: { form: {}, url: {} }, sampling: {}, roots: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } })
    }
  })

  test('sampling: the request is shown as text, the user writes the reply and approves it', async ({ page }) => {
    await callTool(page, 'ask_llm')
    const dialog = page.getByRole('dialog')
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('nanomcp-modern')
    await expect(dialog.getByTestId('sampling-system')).toHaveText('System prompt: You are a poet.')
    // The server's markup is text: the literal tags show, no <b> element exists.
    await expect(dialog.getByTestId('sampling-messages')).toContainText('user: Write a haiku about <b>protocols</b>')
    await expect(dialog.locator('b')).toHaveCount(0)
    await expect(dialog).toContainText('at most 64 tokens')
    await expect(dialog).toContainText('model hints: claude')
    // An empty reply is not sent.
    await dialog.getByRole('button', { name: 'Approve and send' }).click()
    await expect(dialog).toBeVisible()
    await dialog.getByLabel('Reply (as the assistant)').fill('Requests cross the wire / a server asks for more')
    await screenshot(page, 'sampling-dialog', false)
    expect(await seriousViolations(page), 'sampling dialog').toEqual([])
    await dialog.getByRole('button', { name: 'Approve and send' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByTestId('tool-result')).toHaveText(/The model \(human \(nanomcp demo\)\) said: Requests cross the wire \/ a server asks for more/)
  })

  test('sampling: declining sends nothing and the call fails with a clear message', async ({ page }) => {
    const sent: Request[] = []
    page.on('request', (r) => sent.push(r))
    await callTool(page, 'ask_llm')
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Decline' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByTestId('error')).toContainText('You declined the sampling request')
    // Only the first call went out: no retry carried an answer.
    expect(bodies(sent).filter((b) => b.method === 'tools/call' && b.params?.inputResponses)).toHaveLength(0)
  })

  test('roots: the user edits the list and the server gets it as it stands at each call', async ({ page }) => {
    const card = page.locator('section.roots')
    await card.getByLabel('Root URI').fill('https://example.com/not-a-root')
    await card.getByRole('button', { name: 'Add root' }).click()
    await expect(card.getByRole('alert')).toHaveText(/Roots are file:\/\/ URIs/)
    await card.getByLabel('Root URI').fill('file:///home/ada/project')
    await card.getByLabel('Name (optional)').fill('<i>Project</i>')
    await card.getByRole('button', { name: 'Add root' }).click()
    await card.getByLabel('Root URI').fill('file:///tmp/scratch')
    await card.getByRole('button', { name: 'Add root' }).click()
    await expect(card.getByTestId('root')).toHaveCount(2)
    await expect(card.locator('i')).toHaveCount(0)

    await callTool(page, 'list_roots')
    await expect(page.getByTestId('tool-result')).toHaveText(/Roots: <i>Project<\/i> = file:\/\/\/home\/ada\/project; \(unnamed\) = file:\/\/\/tmp\/scratch/)

    await card.getByRole('button', { name: 'Remove file:///home/ada/project' }).click()
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByTestId('tool-result')).toHaveText(/Roots: \(unnamed\) = file:\/\/\/tmp\/scratch$/)
    // Kept across a reload.
    await page.reload()
    await expect(page.locator('section.roots').getByTestId('root')).toHaveText([/file:\/\/\/tmp\/scratch/])
  })

  test('URL elicitation: the full URL is shown, accepting opens it in a new tab and answers accept', async ({ page, context }) => {
    await context.route('https://example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>consent</title>ok' }))
    await callTool(page, 'open_consent')
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText('Please approve access on the consent page.')
    await expect(dialog.locator('code.url')).toHaveText('https://example.com/consent?step=1')
    const opened = context.waitForEvent('page')
    await dialog.getByRole('button', { name: 'Accept' }).click()
    expect((await opened).url()).toBe('https://example.com/consent?step=1')
    await expect(page.getByTestId('tool-result')).toHaveText(/URL elicitation answered: accept/)

    await page.getByRole('button', { name: 'Call tool' }).click()
    await dialog.getByRole('button', { name: 'Decline' }).click()
    await expect(page.getByTestId('tool-result')).toHaveText(/URL elicitation answered: decline/)
  })

  test('tasks: a tool the server runs as a task shows its status as it runs, then its result', async ({ page }) => {
    const sent: Request[] = []
    page.on('request', (r) => sent.push(r))
    await item(page, 'long_job').click()
    await field(page, 'steps').fill('3')
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByTestId('tool-result')).toHaveText(/long_job finished 3 steps/)
    const row = page.getByTestId('task')
    await expect(row).toHaveCount(1)
    await expect(row.getByTestId('task-status')).toHaveText('completed')
    await expect(row.getByTestId('task-message')).toHaveText('step 3 of 3')
    await expect(row.getByRole('button', { name: /Cancel task/ })).toHaveCount(0)
    const calls = bodies(sent)
    expect(calls.filter((b) => b.method === 'tasks/get').length).toBe(3)
    const call = calls.find((b) => b.method === 'tools/call')
    const meta = (call?.params?._meta ?? {}) as Record<string, Record<string, unknown> | undefined>
    expect(meta[CAPS]?.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} })
  })

  test('tasks: Cancel on the task sends tasks/cancel and the call ends as cancelled', async ({ page }) => {
    const sent: Request[] = []
    page.on('request', (r) => sent.push(r))
    await item(page, 'long_job').click()
    await field(page, 'steps').fill('50')
    await page.getByRole('button', { name: 'Call tool' }).click()
    const row = page.getByTestId('task')
    await expect(row.getByTestId('task-status')).toHaveText('working')
    await expect(row.getByTestId('task-message')).toHaveText(/^ ?step [1-9]\d* of 50$/)
    await page.locator('section.tasks').scrollIntoViewIfNeeded()
    await screenshot(page, 'task-running', false)
    expect(await seriousViolations(page), 'roots and tasks cards').toEqual([])
    await row.getByRole('button', { name: /Cancel task/ }).click()
    await expect(row.getByTestId('task-status')).toHaveText('cancelled')
    await expect(page.getByTestId('error')).toContainText('cancelled')
    expect(bodies(sent).filter((b) => b.method === 'tasks/cancel')).toHaveLength(1)
  })

  test('tasks: the call pane\'s Cancel stops polling and tells the server with tasks/cancel', async ({ page }) => {
    const sent: Request[] = []
    page.on('request', (r) => sent.push(r))
    await item(page, 'long_job').click()
    await field(page, 'steps').fill('50')
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByTestId('task').getByTestId('task-status')).toHaveText('working')
    await page.locator('#detail').getByRole('button', { name: 'Cancel', exact: true }).click()
    await expect.poll(() => bodies(sent).filter((b) => b.method === 'tasks/cancel').length).toBe(1)
  })
})

test('older servers: the handshake offers no sampling, roots or elicitation unless the user opts in, then form and URL elicitation, sampling and roots', async ({ page }) => {
  const sent: Request[] = []
  page.on('request', (r) => sent.push(r))
  await openDemo(page)
  await connect(page, 'legacy')
  const first = bodies(sent).find((b) => b.method === 'initialize')
  // Only the extensions capability (tasks): never sampling, roots or elicitation unless opted in.
  expect(first?.params?.capabilities).toEqual({ extensions: { 'io.modelcontextprotocol/tasks': {} } })

  await page.getByText('Headers and options').click()
  await page.getByLabel('Answer input requests from older servers').check()
  sent.length = 0
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByTestId('era')).toBeVisible({ timeout: 15_000 })
  const second = bodies(sent).find((b) => b.method === 'initialize')
  expect(second?.params?.capabilities).toEqual({
    extensions: { 'io.modelcontextprotocol/tasks': {} },
    // The embedded legacy server speaks 2025-11-25, the revision that has URL mode.
    elicitation: { form: { applyDefaults: true }, url: {} },
    sampling: {},
    roots: { listChanged: true },
  })
})

test.describe('older servers, opted in: sampling, roots, URL elicitation and -32042 on a legacy session', () => {
  test.beforeEach(async ({ page, servers }) => {
    await openDemo(page)
    await page.getByText('Headers and options').click()
    await page.getByLabel('Answer input requests from older servers').check()
    await connectTo(page, inputKinds(servers.legacy))
    await expect(page.getByTestId('era')).toHaveText('legacy')
    await expect(item(page, 'ask_llm')).toBeVisible()
  })

  test('sampling/createMessage pushed by the server gets the dialog and the reply the user approved', async ({ page }) => {
    await callTool(page, 'ask_llm')
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByTestId('sampling-messages')).toContainText('Write a haiku about <b>protocols</b>')
    await dialog.getByLabel('Reply (as the assistant)').fill('old wire, same words')
    await dialog.getByRole('button', { name: 'Approve and send' }).click()
    await expect(page.getByTestId('tool-result')).toHaveText(/said: old wire, same words/)
  })

  test('roots/list gets the list, and an edit sends notifications/roots/list_changed', async ({ page }) => {
    const card = page.locator('section.roots')
    await card.getByLabel('Root URI').fill('file:///srv/data')
    await card.getByRole('button', { name: 'Add root' }).click()
    await callTool(page, 'list_roots')
    await expect(page.getByTestId('tool-result')).toHaveText(/Roots: \(unnamed\) = file:\/\/\/srv\/data \(list_changed received: [01]\)/)
    const before = Number(/received: (\d)/.exec((await page.getByTestId('tool-result').textContent()) ?? '')?.[1])
    await card.getByRole('button', { name: 'Remove file:///srv/data' }).click()
    await page.getByRole('button', { name: 'Call tool' }).click()
    await expect(page.getByTestId('tool-result')).toHaveText(new RegExp(`The client has no roots. \\(list_changed received: ${before + 1}\\)`))
  })

  test('URL elicitation (2025-11-25): the URL is text until the user accepts, then opens in a new tab; the tool result and elicitation/complete come back', async ({ page, context }) => {
    let visits = 0
    await context.route('https://example.com/**', (route) => (visits++, route.fulfill({ contentType: 'text/html', body: '<title>consent</title>ok' })))
    const sent: Request[] = []
    page.on('request', (r) => sent.push(r))
    await callTool(page, 'open_consent')
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText('Please approve access on the consent page.')
    await expect(dialog).toContainText('nanomcp-legacy')
    // The full address as text with its domain named, never a live link, and nothing fetched before consent.
    await expect(dialog.locator('code.url')).toHaveText('https://example.com/consent?step=1')
    await expect(dialog.getByTestId('url-domain')).toHaveText('Domain: example.com')
    await expect(dialog.locator('a')).toHaveCount(0)
    expect(visits).toBe(0)
    expect(context.pages()).toHaveLength(1)
    await screenshot(page, 'legacy-url-elicitation', false)
    expect(await seriousViolations(page), 'URL elicitation dialog').toEqual([])
    const opened = context.waitForEvent('page')
    await dialog.getByRole('button', { name: 'Accept' }).click()
    expect((await opened).url()).toBe('https://example.com/consent?step=1')
    await expect(page.getByTestId('tool-result')).toHaveText(/URL elicitation answered: accept; notifications\/elicitation\/complete sent for consent-1/)
    await expect(page.getByTestId('notifications')).toContainText('notifications/elicitation/complete')
    // The answer went back as the JSON-RPC response to the server's elicitation/create: accept, no content.
    const answers = sent.flatMap((r) => {
      const body = r.method() === 'POST' ? (JSON.parse(r.postData() ?? '{}') as { result?: unknown }) : {}
      return body.result ? [body.result] : []
    })
    expect(answers).toEqual([{ action: 'accept' }])
  })

  test('URL elicitation (2025-11-25): declining opens nothing and the server hears decline', async ({ page, context }) => {
    await callTool(page, 'open_consent')
    const dialog = page.getByRole('dialog')
    await expect(dialog.locator('code.url')).toHaveText('https://example.com/consent?step=1')
    await dialog.getByRole('button', { name: 'Decline' }).click()
    await expect(page.getByTestId('tool-result')).toHaveText(/URL elicitation answered: decline$/)
    expect(context.pages()).toHaveLength(1)
    await expect(page.getByTestId('notifications')).not.toContainText('notifications/elicitation/complete')
  })

  test('URL elicitation required (-32042): the listed URL is shown with its domain; accepting opens it and the call is retried and succeeds', async ({ page, context }) => {
    await context.route('https://example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>link</title>ok' }))
    const sent: Request[] = []
    page.on('request', (r) => sent.push(r))
    await callTool(page, 'link_account')
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText('Link your account on the account page.')
    await expect(dialog).toContainText('nanomcp-legacy')
    await expect(dialog.locator('code.url')).toHaveText('https://example.com/link-account')
    await expect(dialog.getByTestId('url-domain')).toHaveText('Domain: example.com')
    await expect(dialog.locator('a')).toHaveCount(0)
    expect(context.pages()).toHaveLength(1)
    const opened = context.waitForEvent('page')
    await dialog.getByRole('button', { name: 'Accept' }).click()
    expect((await opened).url()).toBe('https://example.com/link-account')
    await expect(page.getByTestId('tool-result')).toHaveText(/Account linked after URL elicitation link-1/)
    await expect(page.getByTestId('notifications')).toContainText('notifications/elicitation/complete')
    // The first call met -32042; the second is the client's one retry, with the same arguments.
    const calls = bodies(sent).filter((b) => b.method === 'tools/call' && b.params?.name === 'link_account')
    expect(calls).toHaveLength(2)
    expect(calls[1]?.params?.arguments).toEqual(calls[0]?.params?.arguments)
  })

  test('URL elicitation required (-32042): declining opens nothing, the call is not retried and its error is shown', async ({ page, context }) => {
    const sent: Request[] = []
    page.on('request', (r) => sent.push(r))
    await callTool(page, 'link_account')
    const dialog = page.getByRole('dialog')
    await expect(dialog.locator('code.url')).toHaveText('https://example.com/link-account')
    await dialog.getByRole('button', { name: 'Decline' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByTestId('error')).toContainText('-32042')
    expect(context.pages()).toHaveLength(1)
    expect(bodies(sent).filter((b) => b.method === 'tools/call' && b.params?.name === 'link_account')).toHaveLength(1)
  })
})

test('older servers, not opted in: ask_llm says the client did not declare sampling', async ({ page, servers }) => {
  await openDemo(page)
  await connectTo(page, inputKinds(servers.legacy))
  await callTool(page, 'ask_llm')
  await expect(page.getByTestId('tool-result')).toHaveText(/needs the sampling capability, which the client did not declare/)
  await expect(page.getByRole('dialog')).toBeHidden()
})
