// Every kind of input a 2026-07-28 server can ask for, answered through the page: sampling (shown, written,
// approved or declined), roots (the user's list), URL-mode elicitation (consent, then a new tab); the page
// declares exactly those capabilities; tools run as tasks show their status and can be cancelled. Older servers:
// input-kinds.legacy.spec.ts.
import type { Request } from '@playwright/test'
import { expect, field, item, openDemo, screenshot, test } from './helpers'
import { bodies, callTool, connectTo, inputKinds, seriousViolations } from './input-kinds-kit'

const CAPS = 'io.modelcontextprotocol/clientCapabilities'

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
      expect(meta[CAPS]).toEqual({ elicitation: { form: {}, url: {} }, sampling: {}, roots: {}, extensions: { 'io.modelcontextprotocol/tasks': {}, 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } })
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
    expect(meta[CAPS]?.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {}, 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } })
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
