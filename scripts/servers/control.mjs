// The control endpoints: let a test change a server from outside any client, then watch the client notice.
import { isCatalogueTool } from './catalogue.mjs'
import { README_URI } from './catalogue-state.mjs'
import { sendJson } from './respond.mjs'

const POST_ACTIONS = new Set([
  'add-tool',
  'remove-tool',
  'touch',
  'drop-sessions',
  'reset',
  'stats/reset',
  'close-listens',
  'close-streams',
])

/** Answers `<scope>/control/<action>`. `scope` is `{ state, stats, instance }`. */
export async function handleControl(scope, action, req, res, body, query) {
  const { state, stats, instance } = scope
  if (action === 'stats') {
    if (req.method !== 'GET') return sendJson(res, 405, { error: 'use GET for /control/stats' })
    return sendJson(res, 200, stats.snapshot())
  }
  if (!POST_ACTIONS.has(action)) return sendJson(res, 404, { error: `no control named "${action}"` })
  if (req.method !== 'POST') return sendJson(res, 405, { error: `use POST for /control/${action}` })

  switch (action) {
    case 'add-tool': {
      const name = state.addTool()
      await instance.announce({ kind: 'tools' })
      return sendJson(res, 200, { name, extraTools: state.extraTools() })
    }
    case 'remove-tool': {
      const wanted = query.get('name') ?? (typeof body?.name === 'string' ? body.name : undefined)
      const name = state.removeTool(wanted, isCatalogueTool)
      if (name === undefined) {
        const what = wanted === undefined ? 'no run-time tool is left to remove' : `no tool named "${wanted}"`
        return sendJson(res, 404, { error: what })
      }
      await instance.announce({ kind: 'tools' })
      return sendJson(res, 200, { name, extraTools: state.extraTools() })
    }
    case 'touch': {
      const uri = state.touch()
      await instance.announce({ kind: 'resource', uri })
      return sendJson(res, 200, { uri, revision: state.readmeRevision() })
    }
    case 'reset': {
      const { toolsChanged, readmeChanged } = state.reset()
      if (toolsChanged) await instance.announce({ kind: 'tools' })
      if (readmeChanged) await instance.announce({ kind: 'resource', uri: README_URI })
      return sendJson(res, 200, { toolsChanged, readmeChanged })
    }
    case 'stats/reset':
      stats.reset()
      return sendJson(res, 200, stats.snapshot())
    case 'drop-sessions':
      return sendJson(res, 200, { dropped: await instance.dropSessions() })
    case 'close-listens': {
      if (!instance.closeListens) return sendJson(res, 404, { error: 'close-listens is only on the modern server' })
      const mode = query.get('mode') ?? 'graceful'
      if (mode !== 'graceful' && mode !== 'drop') return sendJson(res, 400, { error: 'mode must be graceful or drop' })
      return sendJson(res, 200, { closed: await instance.closeListens(mode) })
    }
    case 'close-streams':
      if (!instance.closeStreams) return sendJson(res, 404, { error: 'close-streams is only on the legacy server' })
      return sendJson(res, 200, { closed: await instance.closeStreams() })
  }
}
