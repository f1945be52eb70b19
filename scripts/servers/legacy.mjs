// nanomcp-legacy: stateful Streamable HTTP (2025-03-26 … 2025-11-25) on @modelcontextprotocol/sdk 1.x.
// A session per initialize, a GET stream per session for server pushes, resumable with Last-Event-ID,
// and HTTP 404 for a session id it does not know: the answer that makes clients start a new session.
import { randomUUID } from 'node:crypto'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { createEventStore } from './event-store.mjs'
import { startHost } from './host.mjs'
import { RootsListChangedNotificationSchema, UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js'
import { registerLegacyInputKinds, wantsInputKinds } from './input-kinds.mjs'
import { createLegacySession, createSessionRegistry } from './legacy-session.mjs'
import { sendRpcError } from './respond.mjs'

export const LEGACY_INFO = { name: 'nanomcp-legacy', version: '1.0.0' }

function createLegacyInstance({ state, base = '' }) {
  const { sessions, broadcast, dropAll } = createSessionRegistry()

  async function startSession(req, res, message) {
    const session = createLegacySession({ info: LEGACY_INFO, state, broadcast })
    if (wantsInputKinds(base)) registerLegacyInputKinds(session.server, { RootsListChangedNotificationSchema, UrlElicitationRequiredError })
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      eventStore: createEventStore(),
      onsessioninitialized: (id) => void sessions.set(id, { ...session, transport }),
      onsessionclosed: (id) => void sessions.delete(id),
    })
    // Set before connect(): the SDK chains its own onclose after ours.
    transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId)
    await session.server.connect(transport)
    await transport.handleRequest(req, res, message)
    // Anything but initialize got the SDK's "not initialized" answer; nothing is left to keep.
    if (!transport.sessionId) await session.server.close()
  }

  return {
    async handle(req, res, { body }) {
      if (req.method === 'POST' && body.json === undefined) {
        return sendRpcError(res, 400, -32700, 'Parse error: the body is not JSON')
      }
      const id = req.headers['mcp-session-id']
      if (id !== undefined) {
        const session = sessions.get(id)
        if (!session) return sendRpcError(res, 404, -32001, 'Session not found')
        return session.transport.handleRequest(req, res, body?.json)
      }
      if (req.method !== 'POST') return sendRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required')
      return startSession(req, res, body.json)
    },
    announce: (event) => broadcast(event),
    dropSessions: dropAll,
    // Ends the GET streams but keeps the sessions: clients should reconnect and resume with Last-Event-ID.
    async closeStreams() {
      for (const session of sessions.values()) session.transport.closeStandaloneSSEStream()
      return sessions.size
    },
    async close() {
      await dropAll()
    },
  }
}

/** Starts nanomcp-legacy on 127.0.0.1:`port` (0 = ephemeral). */
export async function startLegacy({ port = 0 } = {}) {
  const host = await startHost({
    label: 'legacy server (nanomcp-legacy)',
    port,
    endpoints: ['/mcp'],
    createInstance: createLegacyInstance,
  })
  return { url: `${host.origin}/mcp`, control: host.origin, close: host.close }
}
