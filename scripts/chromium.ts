// One place for the browser binary and flags, shared by vitest.config.ts and playwright.config.ts.
// CHROMIUM_PATH overrides the binary (default: Debian's package). CHROMIUM_EXTRA_ARGS adds flags.
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

// The resolver rule keeps Chromium's own background traffic (updater, account probes) from leaving the
// machine: every name except loopback resolves to NOTFOUND inside the browser.
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1 , EXCLUDE [::1]',
  ...(process.env.CHROMIUM_EXTRA_ARGS?.split(/\s+/).filter(Boolean) ?? []),
]
