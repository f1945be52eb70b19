// nanomcp/vite: mcpProxy() in Vite's dev (and preview) server, one line in vite.config.ts:
//   plugins: [nanomcpProxy({ upstreams: ['https://mcp.example.com'] })]
// Vite is only a type here: the plugin is a plain object, so nothing of Vite ends up in this module.
import type { Plugin } from 'vite'
import { mcpProxy } from '../proxy/proxy'
import { nodeHandler } from '../proxy/node'
import type { McpProxyOptions } from '../proxy/types'

/** Mounts mcpProxy(options) at `options.path` (default `/mcp-proxy/`) of the dev and preview servers. */
export function nanomcpProxy(options: McpProxyOptions): Plugin {
  const path = options.path ?? '/mcp-proxy/'
  const handle = nodeHandler(mcpProxy(options), { path })
  return {
    name: 'nanomcp-proxy',
    // Not `use(path, ...)`: Connect would strip the path from req.url, and the handler needs it whole.
    configureServer: (server) => void server.middlewares.use(handle),
    configurePreviewServer: (server) => void server.middlewares.use(handle),
  }
}

export type { McpProxyOptions } from '../proxy/types'
