// Which servers the picker offers. `npm run demo` bakes the embedded servers into the page
// (VITE_MCP_SERVERS); a built page can be pointed at a JSON index with `?servers=<url>` (the e2e run does);
// the hosted page has neither and offers only the URL field.
import { isRecord } from './dom'

/** auto: Streamable HTTP, falling back to HTTP+SSE when the POST is refused; http: Streamable HTTP only. */
export type TransportChoice = 'auto' | 'http' | 'sse'

export interface EmbeddedServer {
  kind: string
  label: string
  url: string
  transport: TransportChoice
  /** Base URL of the server's test controls (`POST <control>/control/add-tool` …), when it has them. */
  control?: string
}

const KNOWN: Record<string, [label: string, transport: TransportChoice]> = {
  modern: ['Modern · 2026-07-28', 'http'],
  legacy: ['Legacy · Streamable HTTP', 'http'],
  sse: ['Legacy · HTTP+SSE', 'sse'],
  everything: ['Everything · Streamable HTTP', 'http'],
  everythingSse: ['Everything · HTTP+SSE', 'sse'],
}

export function parseServers(data: unknown): EmbeddedServer[] {
  const record = isRecord(data) && isRecord(data.servers) ? data.servers : data
  if (!isRecord(record)) return []
  const order = Object.keys(KNOWN)
  return Object.entries(record)
    .filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]) && typeof entry[1].url === 'string')
    .map(([kind, s]) => ({
      kind,
      label: KNOWN[kind]?.[0] ?? kind,
      url: String(s.url),
      transport: KNOWN[kind]?.[1] ?? (String(s.url).endsWith('/sse') ? 'sse' : 'http'),
      control: typeof s.control === 'string' ? s.control : undefined,
    }))
    .sort((a, b) => (order.indexOf(a.kind) + 1 || 99) - (order.indexOf(b.kind) + 1 || 99))
}

export async function loadServers(): Promise<EmbeddedServer[]> {
  const baked = import.meta.env.VITE_MCP_SERVERS
  if (baked) return parseServers(JSON.parse(baked))
  const index = new URLSearchParams(location.search).get('servers')
  if (!index) return []
  const response = await fetch(index, { signal: AbortSignal.timeout(10_000) })
  if (!response.ok) throw new Error(`The server index ${index} answered HTTP ${response.status}`)
  return parseServers(await response.json())
}
