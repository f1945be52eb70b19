// The connection panel's settings: where they come from (a `?url=` link, else what the last visit used),
// where they are kept, and how they become transport and client options.
//
// The URL, its picker entry, the transport, the timeout, the log level and the two toggles are remembered.
// Headers and the bearer token never are: a `?url=` link chosen by someone else must not be able to carry a stored token to their server.
import type { LogLevel } from '../src/index'
import type { TransportChoice } from './servers'

export interface Settings {
  url: string
  transport: TransportChoice
  /** Seconds; 0 or empty means the library's default (60 s). */
  timeout: number
  /** Declare elicitation, sampling and roots to pre-2026 servers (the library's legacy* options). */
  legacyElicitation: boolean
  /** '' = ask for no logs. */
  logLevel: LogLevel | ''
  /** The picker entry the URL came from ('' for a typed URL): a restarted `npm run demo` moves its ports. */
  server: string
  /** One client for every tab (nanomcp/shared). */
  shared: boolean
}

const KEY = 'nanomcp-demo:connection'
const TRANSPORTS: readonly TransportChoice[] = ['auto', 'http', 'sse']
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']
export const isLogLevel = (value: unknown): value is LogLevel => LOG_LEVELS.includes(value as LogLevel)

export const isTransport = (value: unknown): value is TransportChoice => TRANSPORTS.includes(value as TransportChoice)

/** Thrown for a value the user typed that cannot be used; its message says what to fix. */
export class SettingsError extends Error {}

/** What the last visit left, field by field; `malformed` when something was stored but could not be read. */
export type Remembered = Partial<Settings> & { malformed?: boolean }

function stored(): Remembered {
  let raw: string | null
  try {
    raw = localStorage.getItem(KEY)
  } catch {
    // Storage blocked (private mode, sandboxed frame): start from nothing.
    return {}
  }
  if (raw === null) return {}
  let data: unknown
  try {
    data = JSON.parse(raw)
  } catch {
    return { malformed: true }
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { malformed: true }
  const d = data as Record<string, unknown>
  const known = <T>(value: unknown, ok: (v: unknown) => v is T): T | undefined => (ok(value) ? value : undefined)
  const remembered: Remembered = {
    url: known(d.url, (v): v is string => typeof v === 'string'),
    transport: known(d.transport, isTransport),
    timeout: known(d.timeout, (v): v is number => typeof v === 'number' && v >= 0),
    // Stored as `legacy`: the old `legacyElicitation` key held the former default (off), which is not a choice.
    legacyElicitation: known(d.legacy, (v): v is boolean => typeof v === 'boolean'),
    logLevel: known(d.logLevel, (v): v is LogLevel | '' => v === '' || isLogLevel(v)),
    server: known(d.server, (v): v is string => typeof v === 'string'),
    shared: known(d.shared, (v): v is boolean => typeof v === 'boolean'),
  }
  // A field of the wrong type means someone (or an old build) wrote something this page cannot trust.
  const broken = Object.entries(remembered).some(([key, value]) => value === undefined && d[key === 'legacyElicitation' ? 'legacy' : key] !== undefined)
  return broken ? { ...remembered, malformed: true } : remembered
}

/** Where the page opens: what a `?url=` link says, else what the last visit used. */
export interface InitialSettings extends Settings {
  fromLink: boolean
  /** `?server=` of a link, or the remembered picker entry; resolved against the picker once it has loaded. */
  entry: string | undefined
  /** True when the remembered settings were unreadable. */
  malformed: boolean
  /** True when the remembered URL predates remembering the picker entry (only the URL was kept). */
  urlOnly: boolean
}

/**
 * What the page opens with. `?url=`, `?transport=`, `?server=` and `?shared=` win over the remembered values;
 * they are only ever put into form fields as values, never into markup, and the URL is validated before anything
 * is sent to it.
 */
export function initialSettings(search = location.search): InitialSettings {
  const params = new URLSearchParams(search)
  const saved = stored()
  const linkUrl = params.get('url')
  const linkTransport = params.get('transport')
  const linkServer = params.get('server')
  const linkShared = params.get('shared')
  const fromLink = linkUrl !== null || linkServer !== null
  return {
    url: fromLink ? (linkUrl ?? '') : (saved.url ?? ''),
    transport: isTransport(linkTransport) ? linkTransport : fromLink ? 'auto' : (saved.transport ?? 'auto'),
    timeout: saved.timeout ?? 0,
    // On by default: the demo is an inspector, and older servers' sampling, elicitation and roots tools need it.
    legacyElicitation: saved.legacyElicitation ?? true,
    logLevel: saved.logLevel ?? '',
    server: '',
    shared: linkShared !== null ? linkShared === '1' : fromLink ? false : (saved.shared ?? false),
    entry: fromLink ? (linkServer ?? undefined) : saved.server,
    fromLink,
    malformed: !fromLink && saved.malformed === true,
    urlOnly: !fromLink && saved.url !== undefined && saved.server === undefined,
  }
}

export function saveSettings(settings: Settings): void {
  try {
    const { legacyElicitation, ...rest } = settings
    localStorage.setItem(KEY, JSON.stringify({ ...rest, legacy: legacyElicitation }))
  } catch {
    // Not remembered; the page works the same.
  }
}

/** The page's own address pointing at this server, for the address bar and the "copy link" button. */
export function shareLink(
  url: string,
  transport: TransportChoice,
  href = location.href,
  extra: { server?: string; shared?: boolean } = {},
): string {
  const link = new URL(href)
  link.hash = ''
  link.searchParams.set('url', url)
  if (transport === 'auto') link.searchParams.delete('transport')
  else link.searchParams.set('transport', transport)
  // The picker entry lets a restarted `npm run demo` (new ports) find the same server again.
  if (extra.server) link.searchParams.set('server', extra.server)
  else link.searchParams.delete('server')
  if (extra.shared) link.searchParams.set('shared', '1')
  else link.searchParams.delete('shared')
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
