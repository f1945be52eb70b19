// Starts the embedded MCP servers every test, the demo and the benchmarks use. Each listens on 127.0.0.1,
// on an ephemeral port unless `ports` names one.
import { startEverything } from './everything.mjs'
import { startFaults } from './faults.mjs'
import { startLegacy } from './legacy.mjs'
import { startModern } from './modern.mjs'
import { startProtectedServer } from './oauth/start.mjs'
import { startSse } from './sse.mjs'

export const SERVER_KINDS = ['modern', 'legacy', 'sse', 'everything', 'everythingSse', 'faults', 'protected', 'protectedLegacy']

const starters = {
  modern: ({ port }) => startModern({ port }),
  legacy: ({ port }) => startLegacy({ port }),
  sse: ({ port }) => startSse({ port }),
  everything: ({ timeoutMs }) => startEverything({ mode: 'streamableHttp', timeoutMs }),
  everythingSse: ({ timeoutMs }) => startEverything({ mode: 'sse', timeoutMs }),
  faults: ({ port }) => startFaults({ port }),
  // modern / legacy behind OAuth (oidc-provider AS with its login forms): oauth/start.mjs
  protected: () => startProtectedServer({ upstream: 'modern' }),
  protectedLegacy: () => startProtectedServer({ upstream: 'legacy' }),
}

/**
 * Resolves with `{ servers, stop }`: `servers[kind]` is `{ url, control }` (`control` is undefined for
 * server-everything) and `stop()` ends them all. Options: `only` (kinds to start), `ports` (fixed ports for
 * modern/legacy/sse/faults), `timeoutMs` (per child process, default 20 s). If any server fails to start, the ones
 * that did are stopped and the promise rejects with an error naming each failure.
 */
export async function startServers({ only = SERVER_KINDS, ports = {}, timeoutMs = 20_000 } = {}) {
  const unknown = only.filter((kind) => !SERVER_KINDS.includes(kind))
  if (unknown.length > 0) {
    throw new Error(`unknown server kind(s) ${unknown.join(', ')}; known: ${SERVER_KINDS.join(', ')}`)
  }
  const kinds = [...new Set(only)]
  const outcomes = await Promise.allSettled(kinds.map((kind) => starters[kind]({ port: ports[kind] ?? 0, timeoutMs })))

  const running = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []))
  let stopping
  const stop = () => (stopping ??= Promise.all(running.map((server) => server.close().catch(() => {}))).then(() => {}))

  const failures = outcomes.flatMap((outcome, i) =>
    outcome.status === 'rejected' ? [`${kinds[i]}: ${outcome.reason?.message ?? outcome.reason}`] : [],
  )
  if (failures.length > 0) {
    await stop()
    throw new Error(`could not start the MCP servers\n${failures.join('\n')}`)
  }

  const servers = {}
  outcomes.forEach((outcome, i) => {
    servers[kinds[i]] = { url: outcome.value.url, control: outcome.value.control, ...(outcome.value.issuer && { issuer: outcome.value.issuer }) }
  })
  return { servers, stop }
}
