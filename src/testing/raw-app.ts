// What the Chromium tests of mountApp share: the real sandbox page on another origin, and a raw view (no SDK, so
// the test decides exactly what it declares and when it says `initialized`) that reports everything it receives
// to the host as log entries, which mountApp hands to `onLog`.
import type { DisplayMode } from '../apps/types'

export const APP_URI = 'ui://t/raw.html'

// The same Vite server under the other loopback name is another origin: the sandbox must not share the page's.
export const SANDBOX = `http://${location.hostname === 'localhost' ? '127.0.0.1' : 'localhost'}:${location.port}/src/apps/sandbox.html`

export interface RawAppConfig {
  /** `appCapabilities.availableDisplayModes`. */
  modes?: DisplayMode[]
  /** ms between the initialize answer and `initialized` (the view logs `INITIALIZED` as it sends it). */
  delay?: number
  /** After `initialized`, asks for this display mode (the answer is logged as `{ mode: … }`). */
  askMode?: DisplayMode
}

/**
 * Logs, in order: `{ answer: <initialize result> }`, `'INITIALIZED'`, `{ method, params }` for every message the
 * host sends, and `{ modeAnswer }` for the display-mode answer.
 */
export function rawAppHtml(config: RawAppConfig = {}): string {
  return `<!DOCTYPE html><html><body><script>
  const C = ${JSON.stringify(config)}
  const send = (m) => parent.postMessage(Object.assign({ jsonrpc: '2.0' }, m), '*')
  const say = (data) => send({ method: 'notifications/message', params: { level: 'info', data } })
  addEventListener('message', (e) => {
    const d = e.data
    if (d && d.id === 1) {
      say({ answer: d.result })
      setTimeout(() => {
        say('INITIALIZED')
        send({ method: 'ui/notifications/initialized', params: {} })
        if (C.askMode) send({ id: 2, method: 'ui/request-display-mode', params: { mode: C.askMode } })
      }, C.delay || 0)
    } else if (d && d.id === 2) say({ modeAnswer: d.result || d.error })
    else if (d && typeof d.method === 'string') say({ method: d.method, params: d.params })
  })
  send({ id: 1, method: 'ui/initialize', params: { protocolVersion: '2026-01-26', appInfo: { name: 'raw', version: '1' }, appCapabilities: C.modes ? { availableDisplayModes: C.modes } : {} } })
</script></body></html>`
}

/** The `resources/read` result that carries `html` as the app's resource. */
export const appResource = (html: string) => ({ contents: [{ uri: APP_URI, mimeType: 'text/html;profile=mcp-app', text: html }] })
