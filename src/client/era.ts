import type { JsonRpcErrorObject } from '../transport/types'
import type { Era, EraRecord, EraStore, ServerDescription } from './types'
import type { DiscoverResult } from '../schemas/types'
import type { Wire } from './trace'
import { LEGACY_VERSIONS, VERSION } from '../version'
import { UnsupportedVersionError } from '../errors/unsupported-version-error'
import { abortable } from '../transport/http'
import { noop } from '../transport/pending'
import { speaks } from './validate'

type Result = Record<string, unknown>

const ALL_VERSIONS = [VERSION, ...LEGACY_VERSIONS]

/** Eras learnt in this page, per server URL: a second Client for the same server skips the probe. */
const memory = new Map<string, EraRecord>()

/** Forgets every era learnt in this page (tests, or an app that knows a server was upgraded). */
export function forgetEras(): void {
  memory.clear()
}

/**
 * An EraStore kept in `localStorage` (or any Web Storage), one key per server URL, so a reloaded page goes
 * straight to the handshake of a server it already knows to be legacy. Storage failures (private mode, quota)
 * only cost the saved round trip, so they are swallowed.
 */
export function localStorageEraStore(
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined = globalThis.localStorage,
  prefix = 'nanomcp:era:',
): EraStore {
  return {
    get(url) {
      try {
        const raw = storage?.getItem(prefix + url)
        const record = raw ? (JSON.parse(raw) as EraRecord) : undefined
        return record && (record.era === 'modern' || record.era === 'legacy') ? record : undefined
      } catch {
        return undefined
      }
    },
    set(url, record) {
      try {
        if (record) storage?.setItem(prefix + url, JSON.stringify(record))
        else storage?.removeItem(prefix + url)
      } catch {
        // not worth failing a request over
      }
    },
  }
}

/** What the client does with an answer that tells something about the era. */
export type Verdict = 'retry' | 'modern-error' | 'other' | Fallback

/**
 * Fall back to the handshake, offering this revision (and HTTP+SSE when the POST itself was refused): what a
 * 2026-07-28 request resolves with, instead of a result, when its answer proved the server older and the request
 * unexecuted. The client then runs the handshake and sends the request the legacy way.
 */
export class Fallback {
  readonly offer: string
  readonly sse: boolean

  constructor(offer: string, sse: boolean) {
    this.offer = offer
    this.sse = sse
  }
}

/**
 * Reads what a rejection or JSON-RPC error to a 2026-07-28 request says about the era (the era table):
 * - `-32022` listing 2026-07-28: send once more; listing legacy revisions (or none): the handshake, offering
 *   the newest one listed; listing only unknown revisions: an UnsupportedVersionError naming both lists.
 * - `-32020`, `-32021`, or `-32601` with HTTP 404: the server is modern, the error is the caller's.
 * - while probing, HTTP 400/404/405 (then HTTP+SSE is worth a try too), or `-32601`/`-32000` in a 200: the
 *   handshake. Anything else (401/403, 5xx, network errors) says nothing about the era.
 */
export function verdict(status: number | undefined, error: JsonRpcErrorObject | undefined, probing: boolean): Verdict {
  const code = error?.code
  if (code === -32022) {
    const listed = supported(error)
    if (listed.includes(VERSION)) return 'retry'
    const legacy = LEGACY_VERSIONS.find((v) => listed.includes(v))
    if (legacy || listed.length === 0) return new Fallback(legacy ?? LEGACY_VERSIONS[0]!, false)
    throw versionError(error, 'no common revision')
  }
  if (isModernError(code) || (status === 404 && code === -32601)) return 'modern-error'
  if (probing && (status === undefined ? code === -32601 || code === -32000 : status === 400 || status === 404 || status === 405)) {
    return new Fallback(LEGACY_VERSIONS[0]!, status !== undefined)
  }
  return 'other'
}

function supported(error: JsonRpcErrorObject | undefined): string[] {
  const list = (error?.data as { supported?: unknown } | undefined)?.supported
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : []
}

export function versionError(error: JsonRpcErrorObject | undefined, detail: string): UnsupportedVersionError {
  return new UnsupportedVersionError(supported(error), ALL_VERSIONS, detail)
}

export function isModernError(code: number | undefined): boolean {
  return code === -32020 || code === -32021 || code === -32022
}

/** Whether a server/discover result says the server speaks 2026-07-28. */
export function speaksModern(result: Result | undefined): boolean {
  return speaks(result, VERSION)
}

/**
 * Where the client stands with its server, one state at a time:
 * - `unrecalled`: nothing looked up yet (memory, the era store);
 * - `unknown`: looked up, nothing known: the next request is the probe;
 * - `ambiguous`: a 2026-07-28 request got a result without `resultType`: one server/discover decides;
 * - `modern`: `confirmed` once an answer in this instance proved it (else it came from memory);
 * - `legacy`: at `version`, from a handshake or from memory.
 */
export type Standing =
  | { kind: 'unrecalled' }
  | { kind: 'unknown' }
  | { kind: 'ambiguous' }
  | { kind: 'modern'; confirmed: boolean }
  | { kind: 'legacy'; version: string }

/** The era, the revision, and what the server said about itself; the one owner of the client's Standing. */
export class EraState {
  #standing: Standing = { kind: 'unrecalled' }
  server: ServerDescription | undefined
  readonly wire: Wire
  readonly store: EraStore | undefined

  constructor(wire: Wire, store: EraStore | undefined) {
    this.wire = wire
    this.store = store
  }

  get standing(): Standing {
    return this.#standing
  }

  /** The era, once no open question remains about it. */
  get settled(): Era | undefined {
    const { kind } = this.#standing
    return kind === 'modern' || kind === 'legacy' ? kind : undefined
  }

  /** The revision in use: 2026-07-28 on a modern server, the agreed (or assumed) one on a legacy server. */
  get version(): string | undefined {
    const standing = this.#standing
    return standing.kind === 'modern' ? VERSION : standing.kind === 'legacy' ? standing.version : undefined
  }

  /** Starts from what this page (or the era store) learnt about the server before. */
  async recall(signal: AbortSignal): Promise<void> {
    const { transport } = this.wire
    const url = transport.url
    // A session that is one stream carries only the handshake era.
    const record = transport.sessionStream ? { era: 'legacy' as const, protocolVersion: LEGACY_VERSIONS[0]! } : (memory.get(url) ?? (await abortable(Promise.resolve(this.store?.get(url)), signal)))
    if (!record) return void (this.#standing = { kind: 'unknown' })
    if (record.sse && transport.legacySse) this.wire.transport = await abortable(transport.legacySse(), signal)
    this.#standing = record.era === 'modern' ? { kind: 'modern', confirmed: false } : { kind: 'legacy', version: record.protocolVersion }
  }

  /** A 2026-07-28 request got a result without `resultType` while the era was unknown. */
  answeredAmbiguously(): void {
    this.#standing = { kind: 'ambiguous' }
  }

  /** server/discover did not describe a 2026-07-28 server: an older one, whose handshake follows. */
  assumeLegacy(): void {
    this.#standing = { kind: 'legacy', version: LEGACY_VERSIONS[0]! }
  }

  remember(record: EraRecord): void {
    const url = this.wire.transport.url
    memory.set(url, record)
    void Promise.resolve(this.store?.set(url, record)).catch(noop)
  }

  /** An answer proved the server speaks 2026-07-28. */
  confirm(): void {
    const standing = this.#standing
    if (standing.kind === 'modern' && standing.confirmed) return
    this.#standing = { kind: 'modern', confirmed: true }
    this.remember({ era: 'modern', protocolVersion: VERSION })
  }

  /** A handshake agreed on `protocolVersion`. */
  legacy(protocolVersion: string, server: ServerDescription): void {
    this.#standing = { kind: 'legacy', version: protocolVersion }
    this.server = server
    this.remember({ era: 'legacy', protocolVersion, sse: this.wire.transport.sessionStream || undefined })
  }

  /** `result` has been checked by whoever got it (checkResult, or the probe's `speaksModern`). */
  describeModern(result: DiscoverResult): void {
    const { capabilities, instructions, supportedVersions } = result
    const meta = result._meta as Result | undefined
    this.server = {
      era: 'modern',
      protocolVersion: VERSION,
      serverInfo: meta?.['io.modelcontextprotocol/serverInfo'] as ServerDescription['serverInfo'],
      capabilities,
      instructions,
      supportedVersions,
    }
  }
}
