// The names the MCP Apps extension fixes.

/** The MIME type of an app's HTML resource. */
export const APP_MIME = 'text/html;profile=mcp-app'

/** The MCP Apps protocol version this host speaks (between host and app, apart from MCP's own). */
export const APP_PROTOCOL = '2026-01-26'

/**
 * The client capability to declare so servers offer their UIs:
 * `new Client(t, { capabilities: { extensions: UI_EXTENSION } })` or `createMcp(url, { capabilities: { extensions: UI_EXTENSION } })`.
 */
export const UI_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME] } } as const
