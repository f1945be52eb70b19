// Older servers and the page's input kinds: the handshake offers them all unless the user opts out; then form
// and URL elicitation, sampling and roots, each answered through the same dialogs as on 2026-07-28, and a request
// refused with -32042 retried once its URL elicitation is accepted.
import type { Request } from '@playwright/test'
import { connect, expect, item, openDemo, screenshot, test } from './helpers'
import { bodies, callTool, connectTo, inputKinds, seriousViolations, urlDialog } from './input-kinds-kit'

test('older servers: the handshake offers sampling, roots and elicitation by default, and none of them once the user opts out', async ({ page }) => {
  const sent: Request[] = []
  page.on('request', (r) => sent.push(r))
  await openDemo(page)
  await connect(page, 'legacy')
  const first = bodies(sent).find((b) => b.method === 'initialize')
  expect(first?.params?.capabilities).toEqual({
    extensions: { 'io.modelcontextprotocol/tasks': {} },
    // The embedded legacy server speaks 2025-11-25, the revision that has URL mode.
    elicitation: { form: { applyDefaults: true }, url: {} },
    sampling: {},
    roots: { listChanged: true },
  })

  await page.getByText('Headers and options').click()
  await page.getByLabel('Answer sampling, input and roots requests from older servers').uncheck()
  sent.length = 0
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByTestId('era')).toBeVisible({ timeout: 15_000 })
  const second = bodies(sent).find((b) => b.method === 'initialize')
  // Only the extensions capability (tasks), the library's own default.
  expect(second?.params?.capabilities).toEqual({ extensions: { 'io.modelcontextprotocol/tasks': {} } })
})

test.describe('older servers, opted in: sampling, roots, URL elicitation and -32042 on a legacy session', () => {
  test.beforeEach(async ({ page, servers }) => {
    await openDemo(page)
    await page.getByText('Headers and options').click()
    await page.getByLabel('Answer sampling, input and roots requests from older servers').check()
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
    const dialog = await urlDialog(page, 'Please approve access on the consent page.', 'https://example.com/consent?step=1')
    await expect(dialog).toContainText('nanomcp-legacy')
    // Nothing fetched before consent.
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
    const dialog = await urlDialog(page, 'Link your account on the account page.', 'https://example.com/link-account')
    await expect(dialog).toContainText('nanomcp-legacy')
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

test('older servers, opted out: ask_llm says the client did not declare sampling, and the page names the toggle', async ({ page, servers }) => {
  await openDemo(page)
  await page.getByText('Headers and options').click()
  await page.getByLabel('Answer sampling, input and roots requests from older servers').uncheck()
  await connectTo(page, inputKinds(servers.legacy))
  await callTool(page, 'ask_llm')
  await expect(page.getByTestId('tool-result')).toHaveText(/needs the sampling capability, which the client did not declare/)
  await expect(page.getByTestId('capability-hint')).toContainText('asked for sampling')
  await expect(page.getByRole('dialog')).toBeHidden()
})
