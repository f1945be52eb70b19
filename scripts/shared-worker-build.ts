// How the library build emits nanomcp/shared's SharedWorker: one script an app's bundler copies as it is (an asset,
// not code it rebuilds), so the script must be finished when it leaves this build.
import type { Plugin } from 'vite'

/** Worker plugins for vite.config.ts's `worker.plugins`. */
export function sharedWorkerBuild(): Plugin[] {
  return [
    {
      // Dependencies guard their development-only checks with `process.env.NODE_ENV` (nanostores does). A library
      // build leaves that expression for the app's bundler to replace, but nothing replaces it in a copied asset,
      // and `process` does not exist in a browser's worker: the script would throw before its first message.
      name: 'shared-worker-production',
      options(options) {
        const transform = options.transform ?? {}
        return { ...options, transform: { ...transform, define: { ...transform.define, 'process.env.NODE_ENV': '"production"' } } }
      },
    },
    {
      // No source map: the map of its ~170 KB of minified code (zod, oauth4webapi and the JSON Schema validator
      // inlined) is over 1 MB with its sources and over 200 KB without, more than the rest of the package. The
      // modules it is built from ship with their own maps beside them in dist/.
      name: 'shared-worker-without-source-map',
      configResolved(config) {
        const client = config.environments.client
        if (client) client.build.sourcemap = false
      },
    },
  ]
}
