import { defineConfig, devices } from '@playwright/test'
import { chromiumArgs, chromiumPath } from './scripts/chromium.ts'

const port = Number(process.env.E2E_PORT ?? 4173)
const baseURL = `http://127.0.0.1:${port}`

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  forbidOnly: !!process.env.CI,
  retries: 0,
  // The demo's specs share the embedded servers (and some restart them), so they run one at a time; the MCP Apps
  // spec brings its own servers and pages on ports of its own, so it runs beside them: most of its time is spent
  // waiting on frames and handshakes, and CI has a time limit.
  workers: 2,
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: { baseURL, trace: 'retain-on-failure', screenshot: 'only-on-failure' },
  projects: [
    {
      name: 'chromium',
      testIgnore: /\/apps\.spec\.ts$/,
      workers: 1,
      use: { ...devices['Desktop Chrome'], launchOptions: { executablePath: chromiumPath, args: chromiumArgs } },
    },
    {
      name: 'apps',
      testMatch: /\/apps\.spec\.ts$/,
      workers: 1,
      use: { ...devices['Desktop Chrome'], launchOptions: { executablePath: chromiumPath, args: chromiumArgs } },
    },
  ],
  // The embedded MCP servers and the built demo page, each on its own process tree that Playwright stops.
  webServer: [
    {
      command: 'node scripts/servers/serve.mjs --ports-file test-results/servers.json',
      url: 'http://127.0.0.1:' + (process.env.E2E_SERVERS_PORT ?? 4180) + '/health',
      env: { SERVERS_INDEX_PORT: process.env.E2E_SERVERS_PORT ?? '4180' },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `npm run build:demo && node node_modules/vite/bin/vite.js preview --mode demo --host 127.0.0.1 --port ${port} --strictPort`,
      url: baseURL,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
})
