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

interface Known {
  label: string
  transport: TransportChoice
  /** Appended to the server's URL: the faults server has no MCP endpoint, only scripted answers at paths. */
  path?: string
}

// Every server `npm run demo` starts, in picker order, each with the label the README's server table uses.
const KNOWN: Record<string, Known> = {
  modern: { label: 'Modern · 2026-07-28', transport: 'http' },
  legacy: { label: 'Legacy · Streamable HTTP', transport: 'http' },
  sse: { label: 'Legacy · HTTP+SSE', transport: 'sse' },
  everything: { label: 'Everything · Streamable HTTP', transport: 'http' },
  everythingSse: { label: 'Everything · HTTP+SSE', transport: 'sse' },
  protected: { label: 'Modern behind OAuth · sign in', transport: 'http' },
  protectedLegacy: { label: 'Legacy behind OAuth · sign in', transport: 'http' },
  faults: { label: 'Fault · refuses CORS (a diagnosis)', transport: 'http', path: '/no-cors' },
  'basic-vanillajs': { label: 'MCP App · basic (official example)', transport: 'http' },
  'system-monitor': { label: 'MCP App · system monitor (official example)', transport: 'http' },
}

export function parseServers(data: unknown): EmbeddedServer[] {
  const record = isRecord(data) && isRecord(data.servers) ? data.servers : data
  if (!isRecord(record)) return []
  const order = Object.keys(KNOWN)
  return Object.entries(record)
    .filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]) && typeof entry[1].url === 'string')
    .map(([kind, s]) => {
      const known = Object.hasOwn(KNOWN, kind) ? KNOWN[kind] : undefined
      const url = String(s.url) + (known?.path ?? '')
      return {
        kind,
        label: known?.label ?? kind,
        url,
        transport: known?.transport ?? (url.endsWith('/sse') ? 'sse' : 'http'),
        control: typeof s.control === 'string' ? s.control : undefined,
      }
    })
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
