// The hosted page signing in, as it is deployed: `npm run build:demo` with DEMO_SITE_URL set to the address the
// site is served from, on a plain static file server under /nanomcp/, over https (as on GitHub Pages), on another
// origin than the MCP servers and their authorization servers. The page's redirect_uri (demo/oauth-callback.html) and
// its Client ID Metadata Document (client-metadata.json) both live under that sub-path. The person at the AS
// fills oidc-provider's real login and consent forms in the popup.
//
// https is not decoration here: a CIMD client_id must be an https URL (the spec says so, oidc-provider refuses
// anything else and nanomcp's clientMetadataDocument() throws), so the site gets a throwaway certificate that the
// browser is told to accept and that the AS trusts as its only CA when it fetches the document.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { BrowserContext, Page } from '@playwright/test'
import { expect, field, item, screenshot, SERVERS_INDEX, test, type Servers } from './helpers'
import { drivePopup } from './oauth-popup'
import { selfSignedCert, serveStatic, type StaticSite } from './static-server'
// @ts-expect-error plain ESM test servers without types
import { startOAuthStack } from '../scripts/servers/oauth/start.mjs'

interface Stack {
  url: string
  issuer: string
  as: { stats: Record<string, number> }
  close(): Promise<void>
}

test.use({ ignoreHTTPSErrors: true })

/** The User-Agent of the AS's document fetches, to tell them from the page's own in the site's log. */
const AS_AGENT = 'nanomcp-test-as (client metadata fetch)'

let cert: { key: string; cert: string }
let outDir: string
let site: StaticSite
let cimd: Stack
/** Every client_id URL the CIMD-capable AS asked for. */
const fetchedByAs: string[] = []

/** How the AS fetches a client_id URL: from the static site only, over https, trusting only its certificate. */
function fetchFromSite(url: string): Promise<Response> {
  if (new URL(url).origin !== new URL(site.url).origin) return Promise.reject(new Error(`${url} is not on the test site`))
  fetchedByAs.push(url)
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca: cert.cert, headers: { 'user-agent': AS_AGENT, accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        const type = res.headers['content-type']
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, headers: type ? { 'content-type': type } : {} }))
      })
    })
    req.on('error', reject)
    req.end()
  })
}

test.beforeAll(async () => {
  test.setTimeout(120_000)
  cert = selfSignedCert()
  outDir = mkdtempSync(join(tmpdir(), 'nanomcp-hosted-oauth-'))
  // The server listens first: the build needs the site's address (its port) for the document's client_id.
  site = await serveStatic(outDir, '/nanomcp/', cert)
  await promisify(execFile)(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--mode', 'demo', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    { env: { ...process.env, DEMO_SITE_URL: site.url } },
  )
  const index = (await (await fetch(SERVERS_INDEX)).json()) as { servers?: Servers } & Servers
  // The embedded modern server behind a protected front whose AS supports CIMD (the `protected` server's AS,
  // shared by other specs, keeps DCR only: it is the other test's AS).
  cimd = await startOAuthStack({ upstream: (index.servers ?? index).modern!.url, interactions: 'dev', fetchClientMetadata: fetchFromSite, label: 'CIMD-protected modern server' })
})
test.afterAll(async () => {
  await cimd?.close()
  await site?.close()
  if (outDir) rmSync(outDir, { recursive: true, force: true })
})

// The AS's dev views @import a web font: there is no internet here.
const noFonts = (context: BrowserContext) => context.route(/fonts\.(googleapis|gstatic)\.com/, (route) => route.abort())

/** The authorization requests the popup sent and the callbacks the AS redirected it to, as URLs. */
function watchFlow(context: BrowserContext) {
  const flow = { authorizations: [] as URL[], callbacks: [] as URL[] }
  context.on('request', (request) => {
    const url = new URL(request.url())
    if (url.searchParams.get('response_type') === 'code') flow.authorizations.push(url)
    if (url.href.startsWith(new URL('demo/oauth-callback.html', site.url).href)) flow.callbacks.push(url)
  })
  return flow
}

/** Opens the hosted page on a `?url=` link to a protected server, signs in through the popup. */
async function openAndSignIn(page: Page, serverUrl: string) {
  const link = new URL(site.url)
  link.searchParams.set('url', serverUrl)
  await page.goto(link.href)
  await expect(page.getByTestId('auth-state')).toContainText('wants you to sign in', { timeout: 20_000 })
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('sign-in').click()])
  expect(await drivePopup(popup)).toEqual({ logins: 1, consents: 1 })
}

/** Signed in, connected, the tools listed, and a call that comes back. */
async function provesSignedIn(page: Page, issuer: string) {
  await expect(page.getByTestId('era')).toHaveText('modern', { timeout: 20_000 })
  await expect(page.getByTestId('auth-state')).toContainText(`Signed in at ${issuer}`)
  await expect(item(page, 'echo')).toBeVisible()
  await item(page, 'echo').click()
  await field(page, 'text').fill('from the hosted page')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toContainText('from the hosted page')
  expect(new URL(page.url()).pathname).toBe('/nanomcp/')
}

/** The AS sent the popup back to the site's own callback page under the sub-path, with a code and its `iss`. */
function cameBackUnderSubPath(flow: ReturnType<typeof watchFlow>, issuer: string, logFrom: number) {
  const callback = `${site.url}demo/oauth-callback.html`
  expect(flow.authorizations.map((url) => url.searchParams.get('redirect_uri'))).toEqual([callback])
  expect(flow.callbacks).toHaveLength(1)
  expect(flow.callbacks[0]!.pathname).toBe('/nanomcp/demo/oauth-callback.html')
  expect(flow.callbacks[0]!.searchParams.get('iss')).toBe(issuer)
  expect(flow.callbacks[0]!.searchParams.has('code')).toBe(true)
  expect(site.log.slice(logFrom).filter((r) => r.path.startsWith('/nanomcp/demo/oauth-callback.html')).map((r) => r.status)).toEqual([200])
}

test('the build serves its client metadata document under /nanomcp/, naming its own URL and callback', async ({ request }) => {
  const response = await request.get(`${site.url}client-metadata.json`)
  expect(response.status()).toBe(200)
  expect(await response.json()).toEqual({
    client_id: `${site.url}client-metadata.json`,
    client_name: 'nanomcp demo',
    client_uri: site.url,
    redirect_uris: [`${site.url}demo/oauth-callback.html`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'web',
  })
})

test('with a CIMD-capable AS, the page signs in with its client metadata document URL as client_id', async ({ page, context }) => {
  test.setTimeout(120_000)
  await noFonts(context)
  const flow = watchFlow(context)
  const clientId = `${site.url}client-metadata.json`
  const before = site.log.length
  await openAndSignIn(page, cimd.url)
  await provesSignedIn(page, cimd.issuer)
  await screenshot(page, 'hosted-oauth-cimd-signed-in', false)

  expect(flow.authorizations.map((url) => url.searchParams.get('client_id'))).toEqual([clientId])
  cameBackUnderSubPath(flow, cimd.issuer, before)
  // The AS read the document from the static site itself; nothing was registered.
  expect(fetchedByAs).toEqual([clientId])
  expect(site.log.filter((r) => r.agent === AS_AGENT)).toEqual([{ path: '/nanomcp/client-metadata.json', status: 200, agent: AS_AGENT }])
  expect(cimd.as.stats.registration).toBe(0)
  // The page fetched its own document once (to check its client_id), from its own origin.
  expect(site.log.slice(before).filter((r) => r.path === '/nanomcp/client-metadata.json' && r.agent !== AS_AGENT)).toHaveLength(1)
})

test('with an AS without CIMD, the same page registers itself (DCR) with its /nanomcp/ callback', async ({ page, context, servers }) => {
  test.setTimeout(120_000)
  await noFonts(context)
  const flow = watchFlow(context)
  const protectedServer = servers.protected as { url: string; issuer?: string } | undefined
  if (!protectedServer?.issuer) throw new Error('the embedded protected server is not running')
  const before = site.log.length
  await openAndSignIn(page, protectedServer.url)
  await provesSignedIn(page, protectedServer.issuer)

  const [clientId] = flow.authorizations.map((url) => url.searchParams.get('client_id'))
  // A registered id, not a URL: the AS does not advertise client_id_metadata_document_supported.
  expect(clientId).toBeTruthy()
  expect(clientId).not.toContain('://')
  cameBackUnderSubPath(flow, protectedServer.issuer, before)
  expect(site.log.slice(before).filter((r) => r.agent === AS_AGENT)).toEqual([])
})
