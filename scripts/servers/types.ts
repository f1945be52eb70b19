// Types for the embedded MCP servers, shared by the Vitest globalSetup and the tests that use the servers.

/** The servers `startServers()` can start (`faults`: scripted redirects and cross-origin endpoints, faults.mjs). */
export type ServerKind = 'modern' | 'legacy' | 'sse' | 'everything' | 'everythingSse' | 'faults' | 'protected' | 'protectedLegacy'

export interface ServerEntry {
  /** The MCP endpoint: `http://127.0.0.1:<port>/mcp`, or the `/sse` URL for HTTP+SSE servers. */
  url: string
  /** Base URL of the control endpoints (`${control}/control/add-tool`, ...); undefined for server-everything. */
  control: string | undefined
  /** protected/protectedLegacy (behind OAuth, scripts/servers/oauth): the authorization server's issuer. */
  issuer?: string
}

export type Servers = Record<ServerKind, ServerEntry>

/** `GET ${control}/control/stats`: HTTP requests to the MCP endpoint(s) since start or the last stats reset. */
export interface ServerStats {
  /** Every non-preflight request to the MCP endpoint(s). */
  requests: number
  /** CORS preflights to the MCP endpoint(s), counted apart. */
  preflights: number
  /** POSTs by JSON-RPC method ("response" for a client's response, "invalid" for non-JSON-RPC), GET/DELETE by verb. */
  byMethod: Record<string, number>
}

declare module 'vitest' {
  interface ProvidedContext {
    servers: Servers
  }
}
