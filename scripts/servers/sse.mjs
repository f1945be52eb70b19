// nanomcp-sse: the 2024-11-05 HTTP+SSE transport on @modelcontextprotocol/sdk 1.x. `GET /sse` opens a session
// and announces where to POST (`event: endpoint`, `/messages?sessionId=…`); every answer and notification
// comes back on that one stream.
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { startHost } from './host.mjs'
import { createLegacySession, createSessionRegistry } from './legacy-session.mjs'
import { sendRpcError } from './respond.mjs'

export const SSE_INFO = { name: 'nanomcp-sse', version: '1.0.0' }

function createSseInstance({ state, base }) {
  const { sessions, broadcast, dropAll } = createSessionRegistry()

  async function openSession(res) {
    const session = createLegacySession({ info: SSE_INFO, state, broadcast })
    const transport = new SSEServerTransport(`${base}/messages`, res)
    // Set before connect(): the SDK chains its own onclose after ours. It fires when the stream ends.
    transport.onclose = () => sessions.delete(transport.sessionId)
    sessions.set(transport.sessionId, { ...session, transport })
    await session.server.connect(transport)
  }

  return {
    async handle(req, res, { path, body, url }) {
      if (path === '/sse') {
        if (req.method !== 'GET') return (res.setHeader('Allow', 'GET'), sendRpcError(res, 405, -32000, 'use GET /sse'))
        return openSession(res)
      }
      if (req.method !== 'POST') return (res.setHeader('Allow', 'POST'), sendRpcError(res, 405, -32000, 'use POST'))
      if (body.json === undefined) return sendRpcError(res, 400, -32700, 'Parse error: the body is not JSON')
      const session = sessions.get(url.searchParams.get('sessionId') ?? '')
      if (!session) return sendRpcError(res, 404, -32001, 'Session not found')
      return session.transport.handlePostMessage(req, res, body.json)
    },
    announce: (event) => broadcast(event),
    // Ends every stream: an EventSource sees it close, and POSTs with the old session id get 404.
    dropSessions: dropAll,
    async close() {
      await dropAll()
    },
  }
}

/** Starts nanomcp-sse on 127.0.0.1:`port` (0 = ephemeral). */
export async function startSse({ port = 0 } = {}) {
  const host = await startHost({
    label: 'HTTP+SSE server (nanomcp-sse)',
    port,
    endpoints: ['/sse', '/messages'],
    createInstance: createSseInstance,
  })
  return { url: `${host.origin}/sse`, control: host.origin, close: host.close }
}
