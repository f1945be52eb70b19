// Honest diagnoses on the hosted page: what the server actually answered, never hidden behind the HTTP+SSE
// fallback; a server that does not answer told apart from one that refuses CORS; failed answers in the transcript;
// a new attempt starts clean. Small scripted servers stand in for the faults real MCP servers do not make on demand.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, screenshot, test } from './helpers'

type Handler = (req: { method?: string; headers: IncomingHttpHeaders }) => { status: number; type?: string; body?: string; headers?: Record<string, string> }

/** A server on its own port: CORS allowed (preflights reflect what they are asked) unless `cors` is false. */
async function fakeServer(handler: Handler, cors = true) {
  const seen: IncomingHttpHeaders[] = []
  const server: Server = createServer((req, res) => {
    if (cors) {
      res.setHeader('Access-Control-Allow-Origin', '*')
      res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, WWW-Authenticate')
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE')
        res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '')
        return void res.writeHead(204).end()
      }
    }
    seen.push(req.headers)
    req.resume()
    const answer = handler(req)
    res.writeHead(answer.status, { ...(answer.type ? { 'Content-Type': answer.type } : {}), ...answer.headers }).end(answer.body ?? '')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
  return { url, seen, close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections() }) }
}

async function attempt(page: import('@playwright/test').Page, url: string, transport = 'auto') {
  await page.getByLabel('MCP server URL').fill(url)
  await page.getByLabel('Transport').selectOption(transport)
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
}

test('a 404 HTML page from a CORS-enabled server is named as such, not as CORS, even after the HTTP+SSE fallback', async ({ page }) => {
  const html = await fakeServer(() => ({ status: 404, type: 'text/html', body: '<!doctype html><title>Not here</title><h1>404</h1>' }))
  try {
    await page.goto('./')
    await attempt(page, html.url)
    const diagnosis = page.getByTestId('diagnosis')
    await expect(diagnosis).toHaveText(`Not an MCP endpoint: HTTP 404 from ${html.url} (an HTML page)`, { timeout: 20_000 })
    // No CORS advice: the server answered, so CORS is not the problem.
    await expect(page.getByTestId('error').locator('pre.cors')).toHaveCount(0)
    // The failed answers are in the transcript, with their bodies.
    const failures = page.getByTestId('http-failure')
    await expect(failures.first()).toContainText('HTTP 404 text/html')
    await failures.first().locator('summary').click()
    await expect(failures.first().locator('pre')).toContainText('<title>Not here</title>')
    await screenshot(page, 'diagnosis-404')
  } finally {
    await html.close()
  }
})

test('"Streamable HTTP" reports the refused POST itself, without trying HTTP+SSE', async ({ page }) => {
  const gone = await fakeServer(() => ({ status: 405, type: 'text/plain', body: 'Method Not Allowed' }))
  try {
    await page.goto('./')
    await attempt(page, gone.url, 'http')
    await expect(page.getByTestId('diagnosis')).toHaveText(`Not an MCP endpoint: HTTP 405 from ${gone.url} (text/plain)`, { timeout: 20_000 })
    await expect(page.getByTestId('error')).not.toContainText('fallback was tried')
  } finally {
    await gone.close()
  }
})

test('the page itself (a static site, not an MCP endpoint) is reported with its status', async ({ page }) => {
  await page.goto('./')
  await attempt(page, page.url())
  await expect(page.getByTestId('diagnosis')).toContainText(/^Not an MCP endpoint: .*HTTP \d{3}/, { timeout: 20_000 })
})

test('an unreachable server and one that refuses CORS are told apart, each with its fix', async ({ page }) => {
  // A port that was just free: nothing listens there.
  const closed = await fakeServer(() => ({ status: 200 }))
  await closed.close()
  const noCors = await fakeServer(() => ({ status: 200, type: 'application/json', body: '{}' }), false)
  try {
    await page.goto('./')
    await attempt(page, closed.url)
    await expect(page.getByTestId('diagnosis')).toHaveText(`Nothing answers at ${closed.url}`, { timeout: 20_000 })
    await expect(page.getByTestId('error')).toContainText('Check the address')
    await expect(page.getByTestId('error').locator('pre.cors')).toHaveCount(0)

    await attempt(page, noCors.url)
    await expect(page.getByTestId('diagnosis')).toHaveText(/does not allow CORS from this origin/, { timeout: 20_000 })
    await expect(page.getByTestId('error').locator('pre.cors')).toContainText(`Access-Control-Allow-Origin: ${new URL(page.url()).origin}`)
    // One error on screen: the new attempt replaced the old one.
    await expect(page.getByTestId('error')).toHaveCount(1)
    await screenshot(page, 'diagnosis-cors')
  } finally {
    await noCors.close()
  }
})

test('401: named as authorization; the bearer token and custom headers go to the server', async ({ page }) => {
  const guarded = await fakeServer(() => ({ status: 401, type: 'application/json', body: '{}', headers: { 'WWW-Authenticate': 'Bearer realm="mcp"' } }))
  try {
    await page.goto('./')
    await attempt(page, guarded.url)
    await expect(page.getByTestId('diagnosis')).toHaveText(`The server wants authorization: HTTP 401 from ${guarded.url}`, { timeout: 20_000 })

    await page.locator('#options > summary').click()
    await page.getByLabel('Bearer token').fill('s3cret-token')
    await page.getByLabel(/Custom headers/).fill('X-Api-Key: k-123\nX-Team:  blue ')
    await attempt(page, guarded.url)
    await expect(page.getByTestId('diagnosis')).toContainText('HTTP 401', { timeout: 20_000 })
    const last = guarded.seen.at(-1)!
    expect(last.authorization).toBe('Bearer s3cret-token')
    expect(last['x-api-key']).toBe('k-123')
    expect(last['x-team']).toBe('blue')

    // Garbage in the header field is a message under the form; nothing is sent.
    const before = guarded.seen.length
    await page.getByLabel(/Custom headers/).fill('this is not a header')
    await attempt(page, guarded.url)
    await expect(page.locator('#form-problem')).toContainText('Header line 1 is not “Name: value”')
    expect(guarded.seen.length).toBe(before)
  } finally {
    await guarded.close()
  }
})

test('a new attempt clears the old error and the failed transcript', async ({ page, servers }) => {
  const html = await fakeServer(() => ({ status: 404, type: 'text/html', body: '<h1>no</h1>' }))
  try {
    await page.goto('./')
    await attempt(page, html.url, 'http')
    await expect(page.getByTestId('error')).toBeVisible({ timeout: 20_000 })
    await attempt(page, servers.modern!.url)
    await expect(page.getByTestId('era')).toHaveText('modern', { timeout: 15_000 })
    await expect(page.getByTestId('error')).toHaveCount(0)
    await expect(page.getByTestId('http-failure')).toHaveCount(0)
  } finally {
    await html.close()
  }
})

test('request timeout and the legacy capabilities toggle reach the client', async ({ page, servers }) => {
  const toggle = page.getByLabel('Answer sampling, input and roots requests from older servers')
  await page.goto('./')
  await page.locator('#options > summary').click()
  await expect(toggle).toBeChecked()
  await expect(page.locator('#legacy-elicitation-why')).toContainText('On by default')
  await toggle.uncheck()
  await page.getByLabel('Request timeout (seconds)').fill('5')
  await attempt(page, servers.legacy!.url)
  await expect(page.getByTestId('era')).toHaveText('legacy', { timeout: 15_000 })
  // With the toggle off, the handshake offers no elicitation to the older server.
  await expect(page.getByTestId('transcript')).toContainText('initialize')
  const initialize = page.getByTestId('transcript').locator('li', { hasText: /→.*initialize #/ })
  await initialize.locator('summary').click()
  await expect(initialize.locator('pre')).toContainText('"capabilities"')
  await expect(initialize.locator('pre')).not.toContainText('"elicitation"')
  // Both remembered for the next visit.
  await page.reload()
  await page.locator('#options > summary').click()
  await expect(toggle).not.toBeChecked()
  await expect(page.getByLabel('Request timeout (seconds)')).toHaveValue('5')
})
