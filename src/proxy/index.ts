// nanomcp/proxy: a CORS proxy for MCP servers that allow no CORS, as a WHATWG fetch handler (Workers, Deno, Bun,
// Next.js route handlers) with a tiny node:http adapter.
export { mcpProxy } from './proxy'
export { nodeHandler } from './node'
export type { FetchHandler, McpProxyOptions, ProxyRefusalCode } from './types'
