/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** JSON of the embedded servers, set by `npm run demo` (scripts/demo.mjs); absent on the hosted page. */
  readonly VITE_MCP_SERVERS?: string
}
