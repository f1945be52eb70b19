// The local demo's bridge (scripts/servers/stdio-bridge.mjs): its address comes from `npm run demo`, its token from
// the page URL the terminal printed (`?bridge=`), kept for this tab so a reload or a shared link still has it.
const KEY = 'nanomcp-demo:bridge-token'

/** The bridge with its token, or undefined: hosted page, or a local page not opened from the terminal's link. */
export function bridgeUrl(): string | undefined {
  const base = import.meta.env.VITE_STDIO_BRIDGE
  if (!base) return undefined
  const fromLink = new URLSearchParams(location.search).get('bridge')
  if (fromLink) sessionStorage.setItem(KEY, fromLink)
  const token = fromLink ?? sessionStorage.getItem(KEY)
  return token ? new URL(`${encodeURIComponent(token)}/`, base).href : undefined
}

/** Whether this page runs on `npm run demo` (the bridge and the proxy exist there only). */
export const isLocal = (): boolean => !!import.meta.env.VITE_STDIO_BRIDGE

/** POSTs to the bridge; its refusals come back as an Error with its message. */
export async function askBridge<T>(route: string, body: unknown): Promise<T> {
  const base = bridgeUrl()
  if (!base) throw new Error('Open the page from the link `npm run demo` printed in the terminal: it carries the token the bridge asks for.')
  const response = await fetch(new URL(route, base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const answer = (await response.json().catch(() => ({}))) as T & { error?: { message?: string } }
  if (!response.ok) throw new Error(answer.error?.message ?? `the bridge answered HTTP ${response.status}`)
  return answer
}
