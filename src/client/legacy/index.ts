// The handshake era (servers before 2026-07-28) as one chunk, loaded on demand by client.ts: the session and
// listen()'s set-up over its stream.
export { LegacySession } from './session'
export { listenLegacy } from './subscription'
