// Which server the page opens on, once the picker's list is known. The picker entry is remembered rather than
// its URL: a restarted `npm run demo` may hand its servers other ports, and the entry finds them again. A
// remembered entry that is gone, or settings that cannot be read, fall back to the first server with a line
// saying so, so the page never opens on an address that cannot answer without explaining why.
import type { InitialSettings } from './connection'
import type { EmbeddedServer, TransportChoice } from './servers'

export interface StartChoice {
  url: string
  transport: TransportChoice
  /** The picker entry, '' for a typed URL. */
  entry: string
  /** Why the page did not open where it was last left, in words for the user. */
  note?: string
}

const LOOPBACK = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//i

export function chooseStart(list: readonly EmbeddedServer[], initial: InitialSettings): StartChoice {
  const typed: StartChoice = { url: initial.url, transport: initial.transport, entry: '' }
  const fallback = list[0]
  if (!fallback) return typed
  const use = (server: EmbeddedServer, note?: string): StartChoice => ({ url: server.url, transport: server.transport, entry: server.kind, ...(note && { note }) })
  const instead = (why: string) => use(fallback, `${why}; starting on ${fallback.label} instead.`)
  const named = initial.entry !== undefined && initial.entry !== '' ? list.find((s) => s.kind === initial.entry) : undefined
  const byUrl = list.find((s) => s.url === initial.url)

  if (initial.fromLink) {
    if (named) return use(named)
    if (initial.entry && !initial.url) return instead(`The link names the server “${initial.entry}”, which this page does not list`)
    return byUrl ? use(byUrl) : typed
  }
  if (initial.malformed) return instead('The remembered connection settings could not be read')
  if (named) return use(named)
  if (initial.entry) return instead(`The remembered server “${initial.entry}” is not in this page's list`)
  if (!initial.url) return use(fallback)
  if (byUrl) return use(byUrl)
  // Only the URL was kept (an older visit): a loopback address that is none of this run's servers is almost
  // certainly an embedded server from an earlier run, on a port that is gone now.
  if (initial.urlOnly && LOOPBACK.test(initial.url)) {
    return instead(`The remembered address ${initial.url} is none of this run's embedded servers (their ports can change when the demo restarts)`)
  }
  return typed
}
