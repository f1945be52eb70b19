// One session of a legacy server (SDK v1 McpServer): the catalogue, resources/subscribe, and the way a
// catalogue change reaches this session. Used by the Streamable HTTP (legacy.mjs) and HTTP+SSE (sse.mjs) servers.
import { completable } from '@modelcontextprotocol/sdk/server/completable.js'
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { askNameLegacy } from './ask-name.mjs'
import { CAPABILITIES, INSTRUCTIONS, registerCatalogue } from './catalogue.mjs'

/**
 * `broadcast(event, extra)` is the server's fan-out to all live sessions; the catalogue calls it when a tool
 * (grow, touch) changed something, with the calling request's `extra`.
 */
export function createLegacySession({ info, state, broadcast }) {
  const subscriptions = new Set()
  const server = new McpServer(info, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS })

  // The SDK announces each tool it registers or removes; a change can touch several tools, and clients should
  // see one list_changed for it, so announcements are held while syncing and sent once.
  const announceTools = server.sendToolListChanged.bind(server)
  let holding = false
  server.sendToolListChanged = () => {
    if (!holding) announceTools()
  }

  const kit = {
    ResourceTemplate,
    completable,
    // SDK v1 takes a prompt's arguments as a raw shape; v2 takes an object schema.
    promptArgs: (shape) => shape,
    signal: (extra) => extra.signal,
    async progress(extra, progress, total, message) {
      const progressToken = extra._meta?.progressToken
      if (progressToken === undefined) return
      const params = { progressToken, progress, total, message }
      await extra.sendNotification({ method: 'notifications/progress', params })
    },
    askName: (extra) => askNameLegacy(server, extra),
    announce: (event, extra) => broadcast(event, extra),
  }
  const catalogue = registerCatalogue(server, kit, state)

  server.server.setRequestHandler(SubscribeRequestSchema, async ({ params }) => {
    subscriptions.add(params.uri)
    return {}
  })
  server.server.setRequestHandler(UnsubscribeRequestSchema, async ({ params }) => {
    subscriptions.delete(params.uri)
    return {}
  })

  return {
    server,
    /**
     * Brings this session up to date with `event` and tells its client. `extra` is given when this session's
     * own request caused the change: the notification then rides that request's stream, as older servers do,
     * rather than the session's standalone stream.
     */
    async apply(event, extra) {
      let notification
      if (event.kind === 'tools') {
        holding = true
        let changed
        try {
          changed = catalogue.syncTools()
        } finally {
          holding = false
        }
        if (!changed) return
        notification = { method: 'notifications/tools/list_changed' }
      } else {
        if (!subscriptions.has(event.uri)) return
        notification = { method: 'notifications/resources/updated', params: { uri: event.uri } }
      }
      if (extra) await extra.sendNotification(notification)
      else await server.server.notification(notification)
    },
  }
}

/**
 * The live sessions of a handshake-era server, by session id: announce a change to each of them (the session
 * whose own request caused it gets `extra`, so the notice rides on that request's stream), or end them all.
 */
export function createSessionRegistry() {
  const sessions = new Map()
  return {
    sessions,
    async broadcast(event, extra) {
      await Promise.all(
        [...sessions].map(([id, session]) => session.apply(event, extra?.sessionId === id ? extra : undefined).catch(() => {})),
      )
    },
    async dropAll() {
      const live = [...sessions.values()]
      sessions.clear()
      await Promise.all(live.map((session) => session.server.close().catch(() => {})))
      return live.length
    },
  }
}
