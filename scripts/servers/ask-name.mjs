// ask_name: the tool that needs the user. On 2026-07-28 it asks through a multi-round-trip input_required
// result; on older revisions it can only push an elicitation/create request, which needs a session and a
// client that declared elicitation (nanomcp never does on the handshake), so it explains why it cannot ask.
import {
  MissingRequiredClientCapabilityError,
  inputRequired,
  inputResponse,
} from '@modelcontextprotocol/server'

const MESSAGE = 'What is your name?'
const SCHEMA = { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] }
// Opaque to the client, which must echo it byte for byte; the '+', '/' and '=' catch clients that re-encode.
export const ASK_NAME_STATE = 'YXNrX25hbWU6cm91bmQtMQ==+/ask_name'

const text = (value, isError = false) => ({ content: [{ type: 'text', text: value }], ...(isError && { isError }) })

function answer(action, name) {
  if (action === 'accept') return text(`Hello, ${name}`)
  if (action === 'decline') return text('You declined to give your name.')
  return text('You cancelled the name request.')
}

const declaresElicitation = (ctx) =>
  Boolean(ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities']?.elicitation)

/**
 * A request that cannot proceed without a capability is answered with -32021 (HTTP 400), not a tool result.
 * McpServer turns anything a tool throws into an isError result, so the check sits in front of its tools/call
 * handler, reached through the SDK's protected accessor for stored handlers.
 */
export function requireElicitationForAskName(mcpServer) {
  const inner = mcpServer.server._getRequestHandler?.('tools/call')
  if (!inner) return
  mcpServer.server.setRequestHandler('tools/call', (request, ctx) => {
    if (request.params.name === 'ask_name' && !declaresElicitation(ctx)) {
      throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { elicitation: {} } })
    }
    return inner(request, ctx)
  })
}

/** 2026-07-28 (server SDK v2 handler context). */
export async function askNameModern(ctx) {
  if (!declaresElicitation(ctx)) return askNameUnavailable('the request did not declare the elicitation capability')
  const reply = inputResponse(ctx.mcpReq.inputResponses, 'name')
  const ask = () =>
    inputRequired({
      inputRequests: { name: inputRequired.elicit({ message: MESSAGE, requestedSchema: SCHEMA }) },
      requestState: ASK_NAME_STATE,
    })
  if (reply.kind !== 'elicit') return ask()
  if (ctx.mcpReq.requestState() !== ASK_NAME_STATE) {
    return text('ask_name: the retry did not echo requestState unchanged', true)
  }
  const name = reply.content?.name
  if (reply.action === 'accept' && (typeof name !== 'string' || name === '')) return ask()
  return answer(reply.action, name)
}

/** A legacy connection that cannot carry a server request (stateless), whatever the client declared. */
export function askNameUnavailable(why) {
  return text(`ask_name needs elicitation, which is unavailable here: ${why}`, true)
}

/** Legacy session (server SDK v1): push elicitation/create when the client declared it. */
export async function askNameLegacy(mcpServer, extra) {
  if (!mcpServer.server.getClientCapabilities()?.elicitation) {
    return askNameUnavailable('the client did not declare the elicitation capability')
  }
  const result = await mcpServer.server.elicitInput(
    { message: MESSAGE, requestedSchema: SCHEMA },
    { relatedRequestId: extra.requestId, signal: extra.signal },
  )
  const name = result.content?.name
  if (result.action === 'accept' && (typeof name !== 'string' || name === '')) {
    return text('ask_name: the answer carried no name', true)
  }
  return answer(result.action, name)
}
