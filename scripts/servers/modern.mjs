// nanomcp-modern: the dual-era server on @modelcontextprotocol/server 2.x. It speaks 2026-07-28 (stateless,
// per-request _meta, subscriptions/listen, input_required) and, through the SDK's default legacy:'stateless'
// leg, answers initialize and older requests without sessions (so it can push nothing to legacy clients).
import { Readable } from 'node:stream'
import { toNodeHandler } from '@modelcontextprotocol/node'
import {
  InMemoryServerEventBus,
  McpServer,
  ResourceTemplate,
  completable,
  createMcpHandler,
} from '@modelcontextprotocol/server'
import * as z from 'zod'
import { askNameModern, askNameUnavailable, requireElicitationForAskName } from './ask-name.mjs'
import { CAPABILITIES, INSTRUCTIONS, registerCatalogue } from './catalogue.mjs'
import { registerInputKinds, wantsInputKinds } from './input-kinds.mjs'
import { createTaskFake } from './tasks.mjs'
import { startHost } from './host.mjs'
import { createListenStreams } from './listen-streams.mjs'

export const MODERN_INFO = { name: 'nanomcp-modern', version: '1.0.0' }
const debug = process.env.NANOMCP_SERVERS_DEBUG ? (error) => console.error('[modern]', error.message) : undefined

function createModernInstance({ state, base = '' }) {
  // One bus outlives handler generations, so close-listens can swap the handler without losing notify().
  const bus = new InMemoryServerEventBus(debug)
  const listens = createListenStreams()
  // The input-kinds scope also runs long_job as a task, answered in front of the SDK (it has no tasks support).
  const tasks = wantsInputKinds(base) ? createTaskFake() : undefined

  function announce(event) {
    if (event.kind === 'tools') handler.notify.toolsChanged()
    else handler.notify.resourceUpdated(event.uri)
  }

  const kit = (era) => ({
    ResourceTemplate,
    completable,
    promptArgs: (shape) => z.object(shape),
    signal: (ctx) => ctx.mcpReq.signal,
    async progress(ctx, progress, total, message) {
      const progressToken = ctx.mcpReq._meta?.progressToken
      if (progressToken === undefined) return
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total, message } })
    },
    askName:
      era === 'modern'
        ? askNameModern
        : async () => askNameUnavailable('older revisions are served statelessly here, with no way to ask the client'),
    announce: async (event) => announce(event),
  })

  // A new McpServer per request (the SDK's model); everything that must persist lives in `state` and `bus`.
  const factory = ({ era }) => {
    const server = new McpServer(MODERN_INFO, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS })
    registerCatalogue(server, kit(era), state)
    if (era === 'modern' && wantsInputKinds(base)) registerInputKinds(server)
    if (era === 'modern') requireElicitationForAskName(server)
    return server
  }
  const createHandler = () => createMcpHandler(factory, { bus, onerror: debug })
  let handler = createHandler()

  const node = toNodeHandler({
    async fetch(request, options) {
      const response = await handler.fetch(request, options)
      const isListen = request.headers.get('mcp-method') === 'subscriptions/listen'
      const isStream = response.headers.get('content-type')?.startsWith('text/event-stream')
      return isListen && isStream ? listens.track(response) : response
    },
  })

  return {
    // The host has read the body already; hand the SDK's adapter a request that replays the same bytes.
    handle(req, res, { body }) {
      if (tasks?.handle(req, res, body?.json)) return
      const replay = Readable.from(body?.raw ? [Buffer.from(body.raw)] : [])
      return node(Object.assign(replay, { method: req.method, url: req.url, headers: req.headers }), res)
    },
    announce: async (event) => announce(event),
    // Stateless on both legs: there are no sessions to drop.
    dropSessions: async () => 0,
    async closeListens(mode) {
      if (mode === 'drop') return listens.drop()
      // The SDK ends listen streams gracefully (a listen result, then close) only when the whole handler
      // closes, so close this one and serve later requests from a fresh handler on the same bus.
      const count = listens.size
      const old = handler
      handler = createHandler()
      await old.close()
      return count
    },
    close: () => handler.close(),
  }
}

/** Starts nanomcp-modern on 127.0.0.1:`port` (0 = ephemeral). */
export async function startModern({ port = 0 } = {}) {
  const host = await startHost({
    label: 'modern server (nanomcp-modern)',
    port,
    endpoints: ['/mcp'],
    createInstance: createModernInstance,
  })
  return { url: `${host.origin}/mcp`, control: host.origin, close: host.close }
}
