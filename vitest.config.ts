import { defineConfig } from 'vitest/config'
import { playwright } from '@vitest/browser-playwright'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { chromiumArgs, chromiumPath } from './scripts/chromium.ts'

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'demo/**/*.test.ts'],
          exclude: ['**/*.browser.test.ts', '**/*.browser.test.tsx', 'node_modules/**'],
          globalSetup: ['scripts/servers/global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        // Only the browser tests compile .svelte files (the binding proof); the library and demo builds never see them.
        plugins: [svelte({ configFile: false })],
        // Vue's esm-bundler build asks for its compile-time flags (and warns without them); the test needs none.
        define: { __VUE_OPTIONS_API__: 'false', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
        // Pre-bundled up front, so Vite does not discover them mid-run and reload the test page.
        optimizeDeps: {
          include: ['eventsource-parser', 'nanostores', 'zod/mini', '@cfworker/json-schema', 'react', 'react-dom/client', '@nanostores/react', 'vue', '@nanostores/vue', 'ai', 'ai/test'],
        },
        test: {
          name: 'browser',
          include: ['src/**/*.browser.test.{ts,tsx}', 'scripts/**/*.browser.test.ts', 'demo/**/*.browser.test.ts'],
          globalSetup: ['scripts/servers/global-setup.ts'],
          testTimeout: 20_000,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: chromiumPath, args: chromiumArgs } }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
})
