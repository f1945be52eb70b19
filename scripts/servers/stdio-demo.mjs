// What `npm run demo` adds for stdio servers and the "via proxy" choice: the stdio bridge, the page's address of it
// (VITE_STDIO_BRIDGE, without the token), nanomcp/vite's proxy plugin in the dev server (its allowlist: loopback,
// and the origins the token's page asked the bridge for), and the page URL with the token.
import { startStdioBridge } from './stdio-bridge.mjs'

export async function startDemoBridge(root) {
  const bridge = await startStdioBridge({ cwd: root })
  process.env.VITE_STDIO_BRIDGE = new URL('/', bridge.url).href
  process.env.VITE_DEMO_PROXY = '/mcp-proxy/'
  return {
    close: () => bridge.close(),
    /**
     * For createServer's `plugins`: nanomcpProxy() is TypeScript, which this script cannot import; the dev server
     * loads it, before its own middlewares are in place (Vite awaits configureServer first).
     */
    plugin: {
      name: 'nanomcp-demo-proxy',
      async configureServer(server) {
        const { nanomcpProxy } = await server.ssrLoadModule('/src/vite/index.ts')
        nanomcpProxy({ upstreams: bridge.allowsUpstream }).configureServer(server)
      },
    },
    /** The page's URL as printed: the token in it, and the page's origin allowed to use the bridge. */
    pageUrl(url) {
      const page = new URL(url)
      bridge.allow(page.origin)
      bridge.allow(page.origin.replace('127.0.0.1', 'localhost'))
      page.searchParams.set('bridge', bridge.token)
      return page.href
    },
  }
}
