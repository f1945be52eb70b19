// Storage keys shared by oauth(), the lazily loaded session and handleOAuthCallback().

/** sessionStorage: a redirect-mode sign-in in progress, by its `state`. */
export const FLOW_KEY = 'nanomcp-oauth:flow:'
/** sessionStorage: the callback URL handleOAuthCallback() saw in redirect mode, for the app page to finish. */
export const CALLBACK_KEY = 'nanomcp-oauth:callback'
/** BroadcastChannel the popup's callback page answers on. */
export const CHANNEL = 'nanomcp-oauth'
/** Token storage key of one MCP server. */
export const tokenKey = (server: string): string => `nanomcp-oauth:tokens:${server}`

/** The server a request belongs to: its URL without query or fragment. */
export const serverOf = (url: string): string => url.replace(/[?#].*$/, '')
