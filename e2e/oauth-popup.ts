// oidc-provider's own sign-in popup, driven as a person would: shared by every OAuth spec.
import type { Page } from '@playwright/test'

/** Fills oidc-provider's dev login form (any login and password) and its consent form until the popup closes. */
export async function drivePopup(popup: Page, shots?: string): Promise<{ logins: number; consents: number }> {
  const counts = { logins: 0, consents: 0 }
  const login = popup.locator('input[name=login]')
  const consent = popup.locator('form:has(input[name=prompt][value=consent]) button[type=submit]')
  const closed = popup.waitForEvent('close', { timeout: 30_000 }).then(() => 'closed' as const)
  for (;;) {
    const next = await Promise.race([
      closed,
      login.waitFor({ timeout: 30_000 }).then(() => 'login' as const, () => 'closed' as const),
      consent.waitFor({ timeout: 30_000 }).then(() => 'consent' as const, () => 'closed' as const),
    ])
    if (next === 'closed' || popup.isClosed()) return counts
    if (next === 'login') {
      await login.fill('ada')
      await popup.locator('input[name=password]').fill('any password')
      if (shots) await popup.screenshot({ path: `test-results/screenshots/${shots}-login.png` })
      await popup.locator('button[type=submit]').click()
      await login.waitFor({ state: 'detached' }).catch(() => undefined)
      counts.logins++
    } else {
      if (shots) await popup.screenshot({ path: `test-results/screenshots/${shots}-consent.png` })
      await consent.click()
      await consent.waitFor({ state: 'detached' }).catch(() => undefined)
      counts.consents++
    }
  }
}
