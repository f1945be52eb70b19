/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** JSON of the embedded servers, set by `npm run demo` (scripts/demo.mjs); absent on the hosted page. */
  readonly VITE_MCP_SERVERS?: string
  /** The stdio bridge's address (without its token), set by `npm run demo`; absent on the hosted page. */
  readonly VITE_STDIO_BRIDGE?: string
  /** Where the demo's dev server mounts nanomcp/proxy, set by `npm run demo`; absent on the hosted page. */
  readonly VITE_DEMO_PROXY?: string
  /** The page's Client ID Metadata Document URL, set by `npm run build:demo` from DEMO_SITE_URL; else ''. */
  readonly DEMO_CLIENT_METADATA_URL?: string
  /** Where nanomcp/apps/sandbox.html is served, on another origin (npm run demo sets it; hosted: a build variable). */
  readonly VITE_APPS_SANDBOX_URL?: string
}
