// OAuth sign-in from the demo page against the embedded `protected` server: a real authorization server
// (oidc-provider) whose own login and consent forms are filled in the popup, as a person would.
import type { BrowserContext, Page } from '@playwright/test'
import { control, expect, field, item, openDemo, screenshot, test } from './helpers'
import { drivePopup } from './oauth-popup'

/** Clicks Sign in and completes the popup. */
async function signIn(page: Page, shots?: string) {
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('sign-in').click()])
  return drivePopup(popup, shots)
}

// The AS's dev views @import a web font: there is no internet here.
const noFonts = (context: BrowserContext) => context.route(/fonts\.(googleapis|gstatic)\.com/, (route) => route.abort())

async function connectProtected(page: Page) {
  await openDemo(page)
  await page.getByLabel('Server', { exact: true }).selectOption('protected')
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByTestId('auth-state')).toContainText('wants you to sign in', { timeout: 20_000 })
  await expect(page.getByTestId('sign-in-needed')).toBeVisible()
}

test('sign in through the AS login and consent forms, step up for an extra scope, refresh, sign out', async ({ page, context, request, servers }) => {
  test.setTimeout(120_000)
  await noFonts(context)
  await connectProtected(page)
  await screenshot(page, 'oauth-required', false)

  const first = await signIn(page, 'oauth')
  expect(first).toEqual({ logins: 1, consents: 1 })
  await expect(page.getByTestId('era')).toBeVisible({ timeout: 20_000 })
  await expect(item(page, 'echo')).toBeVisible()
  await expect(page.getByTestId('auth-state')).toContainText('Signed in at')
  await expect(page.getByTestId('auth-state')).toContainText('mcp:tools')
  await screenshot(page, 'oauth-signed-in', false)

  await item(page, 'echo').click()
  await field(page, 'text').fill('signed in')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toContainText('signed in')

  // Step-up: `add` needs mcp:admin. The 403 insufficient_scope asks for a new sign-in with both scopes.
  await item(page, 'add').click()
  await field(page, 'a').fill('2')
  await field(page, 'b').fill('3')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('auth-state')).toContainText('mcp:admin', { timeout: 20_000 })
  const second = await signIn(page, 'oauth-step-up')
  // The AS session cookie skips the login; the new scope needs consent.
  expect(second.logins).toBe(0)
  await expect(page.getByTestId('auth-state')).toContainText('Signed in at')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toContainText('5')

  // An expired access token is refreshed with the refresh token: no popup, the call goes through.
  let popups = 0
  page.on('popup', () => popups++)
  await control(request, servers.protected, 'expire')
  await item(page, 'echo').click()
  await field(page, 'text').fill('after expiry')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toContainText('after expiry')
  expect(popups).toBe(0)
  await expect(page.getByTestId('auth-state')).toContainText('Signed in at')

  // Sign out: the page says so at once, hides the catalogue it can no longer use, and offers Sign in.
  await page.getByTestId('sign-out').click()
  await expect(page.getByTestId('auth-state')).toContainText('Signed out of')
  await expect(page.getByTestId('sign-in')).toBeVisible()
  await expect(page.getByTestId('signed-out')).toBeVisible()
  await expect(page.getByTestId('era')).toBeHidden()
  await expect(page.locator('#workspace')).toBeHidden()
  expect(popups).toBe(0)
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size)
    await expect(page.getByTestId('sign-in')).toBeInViewport()
  }
  await screenshot(page, 'oauth-signed-out', false)
  await page.setViewportSize({ width: 1280, height: 800 })

  // Signing in again brings the server back.
  await signIn(page)
  await expect(page.getByTestId('auth-state')).toContainText('Signed in at', { timeout: 20_000 })
  await expect(page.getByTestId('era')).toBeVisible({ timeout: 20_000 })
  await item(page, 'echo').click()
  await field(page, 'text').fill('signed in again')
  await page.getByRole('button', { name: 'Call tool' }).click()
  await expect(page.getByTestId('tool-result')).toContainText('signed in again')
})

test('a callback whose iss is not the issuer is refused, and nothing is signed in', async ({ page, context }) => {
  await noFonts(context)
  // The AS's redirect to the callback page carries another `iss` (a mix-up attack's shape). Requests that follow
  // a redirect are not routed, so the consent form's POST is answered here: its redirects are followed with the
  // context's cookies, and the last one, to the callback page, is handed to the popup with `iss` changed.
  await context.route(/\/interaction\/[^/?]+$/, async (route) => {
    if (route.request().method() !== 'POST' || !route.request().postData()?.includes('prompt=consent')) return route.continue()
    let base = route.request().url()
    let location = (await route.fetch({ maxRedirects: 0 })).headers().location
    while (location && !location.includes('oauth-callback.html')) {
      base = new URL(location, base).href
      location = (await context.request.get(base, { maxRedirects: 0 })).headers().location
    }
    if (!location) return route.abort()
    const callback = new URL(location, base)
    callback.searchParams.set('iss', `${callback.searchParams.get('iss')}/evil`)
    return route.fulfill({ status: 303, headers: { location: callback.href } })
  })
  await connectProtected(page)
  await signIn(page)
  await expect(page.getByTestId('auth-state')).toContainText('Signing in failed')
  await expect(page.locator('#auth-panel')).toContainText('iss')
  await expect(page.getByTestId('sign-in')).toBeVisible()
  await expect(page.getByTestId('era')).toBeHidden()
  await screenshot(page, 'oauth-iss-refused', false)
})

test('"Share one connection across tabs": two demo tabs, one sign-in in one popup, both list and call tools', async ({ page, context }) => {
  test.setTimeout(120_000)
  await noFonts(context)
  const tabs = [page, await context.newPage()]
  const popups: number[] = []
  for (const [index, tab] of tabs.entries()) {
    tab.on('popup', () => popups.push(index))
    await openDemo(tab)
    await tab.locator('#options > summary').click()
    await tab.getByLabel('Share one connection across tabs').check()
    await tab.getByLabel('Server', { exact: true }).selectOption('protected')
    await tab.getByRole('button', { name: 'Connect', exact: true }).click()
    await expect(tab.getByTestId('auth-state')).toContainText('wants you to sign in', { timeout: 20_000 })
  }
  await signIn(tabs[0]!)
  for (const tab of tabs) {
    await expect(tab.getByTestId('era')).toBeVisible({ timeout: 20_000 })
    await expect(tab.getByTestId('auth-state')).toContainText('Signed in at')
    await expect(item(tab, 'echo')).toBeVisible()
  }
  expect(popups).toEqual([0])
  const second = tabs[1]!
  await expect(second.locator('#server')).toContainText('shared across tabs')
  await item(second, 'echo').click()
  await field(second, 'text').fill('from the second tab')
  await second.getByRole('button', { name: 'Call tool' }).click()
  await expect(second.getByTestId('tool-result')).toContainText('from the second tab')
  await screenshot(second, 'oauth-shared-second-tab', false)
})
