import { defineConfig } from 'vite'
import pkg from './package.json' with { type: 'json' }
import { CALLBACK_PAGE } from './demo/callback-page.ts'
import { demoClientMetadata } from './scripts/demo-client-metadata.ts'
import { sharedWorkerBuild } from './scripts/shared-worker-build.ts'

// Runtime dependencies stay external in the library build (zod, zod/mini, nanostores, eventsource-parser), and so
// do peers (`ai`, for nanomcp/ai): the app brings its own copy.
const deps = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]
const external = (id: string) => deps.some((d) => id === d || id.startsWith(`${d}/`))

export default defineConfig(({ mode }) =>
  mode === 'demo'
    ? // `vite build --mode demo`: index.html + demo/ into dist-demo/, a static page that can be hosted anywhere
      // demo/oauth-callback.html: the OAuth redirect URI page, a second input so it ships with index.html.
      // DEMO_SITE_URL (the site's public https address): also emit its OAuth client metadata document.
      {
        base: './',
        plugins: [demoClientMetadata(process.env.DEMO_SITE_URL || undefined)],
        build: { outDir: 'dist-demo', rolldownOptions: { input: { main: 'index.html', callback: CALLBACK_PAGE } } },
      }
    : {
        // nanomcp/shared's SharedWorker is emitted as one self-contained script (iife: its lazy parts inlined, so an
        // app's bundler can copy it as a single asset) under dist/assets/, found from its importer by a relative URL.
        base: './',
        worker: { format: 'iife', plugins: sharedWorkerBuild },
        build: {
          lib: { entry: { index: 'src/index.ts', 'shared/index': 'src/shared/index.ts', 'schemas/index': 'src/schemas/index.ts', 'ai/index': 'src/ai/index.ts', 'apps/index': 'src/apps/index.ts', 'proxy/index': 'src/proxy/index.ts', 'vite/index': 'src/vite/index.ts' }, formats: ['es'] },
          // One output module per source module: with "sideEffects": false an app's bundler drops what it does
          // not import. A single-file bundle would keep every top-level schema call and all of zod with it.
          rolldownOptions: {
            external,
            output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
          },
          sourcemap: true,
          emptyOutDir: true,
        },
      },
)
