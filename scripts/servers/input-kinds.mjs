// Tools that ask the client for every other kind of input on 2026-07-28 (a sampled message, the client's
// roots, a URL-mode elicitation, each through an `input_required` round) and a tool run as a task (tasks.mjs).
// They live only in scopes whose name starts with INPUT_KINDS_SCOPE (e.g. /s/input-kinds/mcp on the modern
// server), so the catalogue every other test counts stays as it is.
import { inputRequired, inputResponse } from '@modelcontextprotocol/server'
import * as z from 'zod'
import { registerLongJob } from './tasks.mjs'

export const INPUT_KINDS_SCOPE = 'input-kinds'
export const SAMPLING_PROMPT = 'Write a haiku about <b>protocols</b>'
export const CONSENT_URL = 'https://example.com/consent?step=1'
export const LINK_URL = 'https://example.com/link-account'

const text = (value, isError = false) => ({ content: [{ type: 'text', text: value }], ...(isError && { isError }) })
const declared = (ctx) => ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities'] ?? {}

/** True for the scope prefix (`base` is '/s/<name>' or '' for the default scope). */
export const wantsInputKinds = (base) => base.startsWith(`/s/${INPUT_KINDS_SCOPE}`)

/**
 * Registers ask_llm (sampling), list_roots (roots), open_consent (URL elicitation) and long_job (a task, see
 * tasks.mjs) on a modern McpServer.
 */
export function registerInputKinds(server) {
  registerLongJob(server)
  server.registerTool(
    'ask_llm',
    { title: 'Ask the LLM', description: 'Asks the client to sample a message (sampling/createMessage) and returns it.', inputSchema: z.object({}) },
    async (_args, ctx) => {
      if (!declared(ctx).sampling) return text('ask_llm needs the sampling capability', true)
      const reply = inputResponse(ctx.mcpReq.inputResponses, 'llm')
      if (reply.kind !== 'sampling') {
        return inputRequired({
          inputRequests: {
            llm: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: SAMPLING_PROMPT } }],
              systemPrompt: 'You are a poet.',
              maxTokens: 64,
              modelPreferences: { hints: [{ name: 'claude' }] },
            }),
          },
        })
      }
      const content = reply.result.content
      const said = content?.type === 'text' ? content.text : JSON.stringify(content)
      return text(`The model (${String(reply.result.model)}) said: ${said}`)
    },
  )
  server.registerTool(
    'list_roots',
    { title: 'List roots', description: "Asks the client for its roots (roots/list) and lists them.", inputSchema: z.object({}) },
    async (_args, ctx) => {
      if (!declared(ctx).roots) return text('list_roots needs the roots capability', true)
      const reply = inputResponse(ctx.mcpReq.inputResponses, 'roots')
      if (reply.kind !== 'roots') return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } })
      if (!reply.roots.length) return text('The client has no roots.')
      return text(`Roots: ${reply.roots.map((root) => `${root.name ?? '(unnamed)'} = ${root.uri}`).join('; ')}`)
    },
  )
  server.registerTool(
    'open_consent',
    { title: 'Open consent page', description: 'Asks the user to visit a URL (URL-mode elicitation).', inputSchema: z.object({}) },
    async (_args, ctx) => {
      if (!declared(ctx).elicitation?.url) return text('open_consent needs URL-mode elicitation', true)
      const reply = inputResponse(ctx.mcpReq.inputResponses, 'consent')
      if (reply.kind !== 'elicit') {
        return inputRequired({
          inputRequests: { consent: inputRequired.elicitUrl({ message: 'Please approve access on the consent page.', url: CONSENT_URL }) },
        })
      }
      return text(`URL elicitation answered: ${reply.action}`)
    },
  )
}

/**
 * The same asks on a legacy session (server SDK v1): ask_llm, list_roots and open_consent push
 * `sampling/createMessage`, `roots/list` and a URL-mode `elicitation/create` (2025-11-25) to the client on the
 * call's own stream, when the client declared the capability in its handshake. list_roots also says how many
 * `notifications/roots/list_changed` the session has received; open_consent, once accepted, sends
 * `notifications/elicitation/complete` for its elicitation (the consent page here needs no real visit).
 * link_account asks the other 2025-11-25 way: it fails with URLElicitationRequiredError (-32042) until its
 * elicitation is complete (see there). The SDK's classes come from the caller, which imports SDK v1.
 */
export function registerLegacyInputKinds(mcpServer, { RootsListChangedNotificationSchema, UrlElicitationRequiredError }) {
  let rootsChanges = 0
  mcpServer.server.setNotificationHandler(RootsListChangedNotificationSchema, () => void rootsChanges++)
  const caps = () => mcpServer.server.getClientCapabilities() ?? {}
  mcpServer.registerTool(
    'ask_llm',
    { title: 'Ask the LLM', description: 'Asks the client to sample a message (sampling/createMessage) and returns it.', inputSchema: z.object({}) },
    async (_args, extra) => {
      if (!caps().sampling) return text('ask_llm needs the sampling capability, which the client did not declare', true)
      const result = await mcpServer.server.createMessage(
        { messages: [{ role: 'user', content: { type: 'text', text: SAMPLING_PROMPT } }], systemPrompt: 'You are a poet.', maxTokens: 64 },
        { relatedRequestId: extra.requestId, signal: extra.signal },
      )
      const said = result.content?.type === 'text' ? result.content.text : JSON.stringify(result.content)
      return text(`The model (${String(result.model)}) said: ${said}`)
    },
  )
  mcpServer.registerTool(
    'list_roots',
    { title: 'List roots', description: 'Asks the client for its roots (roots/list) and lists them.', inputSchema: z.object({}) },
    async (_args, extra) => {
      if (!caps().roots) return text('list_roots needs the roots capability, which the client did not declare', true)
      const { roots } = await mcpServer.server.listRoots(undefined, { relatedRequestId: extra.requestId, signal: extra.signal })
      const listed = roots.length ? `Roots: ${roots.map((root) => `${root.name ?? '(unnamed)'} = ${root.uri}`).join('; ')}` : 'The client has no roots.'
      return text(`${listed} (list_changed received: ${rootsChanges})`)
    },
  )
  let consents = 0
  mcpServer.registerTool(
    'open_consent',
    { title: 'Open consent page', description: 'Asks the user to visit a URL (URL-mode elicitation).', inputSchema: z.object({}) },
    async (_args, extra) => {
      if (!caps().elicitation?.url) return text('open_consent needs URL-mode elicitation, which the client did not declare', true)
      const elicitationId = `consent-${++consents}`
      const related = { relatedRequestId: extra.requestId }
      const result = await mcpServer.server.elicitInput(
        { mode: 'url', message: 'Please approve access on the consent page.', url: CONSENT_URL, elicitationId },
        { ...related, signal: extra.signal },
      )
      if (result.action !== 'accept') return text(`URL elicitation answered: ${result.action}`)
      // On the call's own stream, ahead of its result: the client hands it to onNotification once the call settles.
      await mcpServer.server.createElicitationCompletionNotifier(elicitationId, related)()
      return text(`URL elicitation answered: accept; notifications/elicitation/complete sent for ${elicitationId}`)
    },
  )
  // The session's one open link elicitation. The account page needs no real visit here: the call that comes after
  // the -32042 (a client's retry once its user accepted) finds it complete. A real server would learn that from
  // its page; a client that declined never comes back for it.
  let links = 0
  let pendingLink
  mcpServer.registerTool(
    'link_account',
    { title: 'Link account', description: 'Fails with -32042 (URL elicitation required) until the account page was visited.', inputSchema: z.object({}) },
    async (_args, extra) => {
      if (!caps().elicitation?.url) return text('link_account needs URL-mode elicitation, which the client did not declare', true)
      if (!pendingLink) {
        pendingLink = `link-${++links}`
        // Thrown, not returned: the SDK answers the call with this JSON-RPC error, data.elicitations and all.
        throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Link your account on the account page.', url: LINK_URL, elicitationId: pendingLink }])
      }
      const elicitationId = pendingLink
      pendingLink = undefined
      await mcpServer.server.createElicitationCompletionNotifier(elicitationId, { relatedRequestId: extra.requestId })()
      return text(`Account linked after URL elicitation ${elicitationId}`)
    },
  )
}
