// The handshake era's stream code (servers before 2026-07-28) as one chunk, loaded on demand by streamable-http.ts:
// the session's GET stream with the requests a 202 parks on it, and resumption with GET + Last-Event-ID.
export { SessionStreams } from './session-stream'
export { resume } from './resume'
