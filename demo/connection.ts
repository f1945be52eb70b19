// The connection panel's settings: where they come from (a `?url=` link, else what the last visit used),
// where they are kept, and how they become transport and client options.
//
// Only the URL, the transport, the timeout and the legacy toggle are remembered. Headers and the bearer token
// never are: a `?url=` link chosen by someone else must not be able to carry a stored token to their server.
import type { LogLevel } from '../src/index'
import type { TransportChoice } from './servers'

export interface Settings {
  url: string
  transport: TransportChoice
  /** Seconds; 0 or empty means the library's default (60 s). */
  timeout: number
  legacyElicitation: boolean
  /** '' = ask for no logs. */
  logLevel: LogLevel | ''
}

const KEY = 'nanomcp-demo:connection'
const TRANSPORTS: readonly TransportChoice[] = ['auto', 'http', 'sse']
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']
export const isLogLevel = (value: unknown): value is LogLevel => LOG_LEVELS.includes(value as LogLevel)

export const isTransport = (value: unknown): value is TransportChoice => TRANSPORTS.includes(value as TransportChoice)

/** Thrown for a value the user typed that cannot be used; its message says what to fix. */
export class SettingsError extends Error {}

function stored(): Partial<Settings> {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, unknown>
    return {
      url: typeof data.url === 'string' ? data.url : undefined,
      transport: isTransport(data.transport) ? data.transport : undefined,
      timeout: typeof data.timeout === 'number' && data.timeout >= 0 ? data.timeout : undefined,
      legacyElicitation: data.legacyElicitation === true,
      logLevel: isLogLevel(data.logLevel) ? data.logLevel : undefined,
    }
  } catch {
    // Storage blocked (private mode, sandboxed frame) or garbage in it: start from nothing.
    return {}
  }
}

/**
 * What the page opens with. `?url=` and `?transport=` win over the remembered values; both are only ever put
 * into form fields as values, never into markup, and the URL is validated before anything is sent to it.
 */
export function initialSettings(search = location.search): Settings & { fromLink: boolean } {
  const params = new URLSearchParams(search)
  const saved = stored()
  const linkUrl = params.get('url')
  const linkTransport = params.get('transport')
  return {
    url: linkUrl ?? saved.url ?? '',
    transport: isTransport(linkTransport) ? linkTransport : (saved.transport ?? 'auto'),
    timeout: saved.timeout ?? 0,
    legacyElicitation: saved.legacyElicitation ?? false,
    logLevel: saved.logLevel ?? '',
    fromLink: linkUrl !== null,
  }
}

export function saveSettings(settings: Settings): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings))
  } catch {
    // Not remembered; the page works the same.
  }
}

/** The page's own address pointing at this server, for the address bar and the "copy link" button. */
export function shareLink(url: string, transport: TransportChoice, href = location.href): string {
  const link = new URL(href)
  link.hash = ''
  link.searchParams.set('url', url)
  if (transport === 'auto') link.searchParams.delete('transport')
  else link.searchParams.set('transport', transport)
  return link.href
}

/** An http(s) URL, or a SettingsError that says why not (spaces, `javascript:`, a bare host name…). */
export function checkServerUrl(raw: string): string {
  const text = raw.trim()
  if (!text) throw new SettingsError('Type the address of an MCP server, such as https://example.com/mcp.')
  // Browsers differ on spaces in a host name (some percent-encode them): refuse them everywhere alike.
  if (/\s/.test(text)) throw new SettingsError(`“${text}” has spaces in it; a URL has none (write a space in a path as %20).`)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new SettingsError(`“${text}” is not a URL. Type a full address starting with https:// or http://.`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SettingsError(`Only http and https addresses can be MCP servers, not “${url.protocol}”.`)
  }
  return url.href
}

// RFC 9110 token characters: anything else in a header name makes fetch throw a TypeError of its own.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** "Name: value" lines plus an optional bearer token, as the transport's `headers` option. */
export function parseHeaders(text: string, token: string): Record<string, string> {
  const headers: Record<string, string> = {}
  text.split(/\r?\n/).forEach((line, index) => {
    if (!line.trim()) return
    const colon = line.indexOf(':')
    const name = colon > 0 ? line.slice(0, colon).trim() : ''
    const value = colon > 0 ? line.slice(colon + 1).trim() : ''
    if (!HEADER_NAME.test(name)) {
      throw new SettingsError(`Header line ${index + 1} is not “Name: value”: ${JSON.stringify(line.slice(0, 80))}`)
    }
    if (/[\r\n\0]/.test(value)) throw new SettingsError(`Header ${name} has a line break in its value.`)
    headers[name] = value
  })
  const bearer = token.trim()
  if (bearer) {
    if (/\s/.test(bearer)) throw new SettingsError('The bearer token has spaces in it; paste the token alone, without “Bearer”.')
    headers.Authorization = `Bearer ${bearer}`
  }
  return headers
}
