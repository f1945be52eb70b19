// The Chat panel: talk to a model (OpenAI-compatible or Anthropic endpoint) that can call the connected
// server's tools. The key lives in this module's memory only; it goes to the endpoint typed here and nowhere
// else. Tool calls, approvals and results show in the panel's transcript; every server and model string is text.
import type { CallToolResult, Mcp, Tool } from '../src/index'
import { forModel } from '../src/ai/visible'
import { createConversation, DEFAULT_ENDPOINTS, type ChatSettings, type ProviderKind, type ToolCall } from './chat-provider'
import { APPS_SANDBOX, hasApp, showApp } from './app-view'
import { h, json } from './dom'
import { renderError, renderToolResult } from './render-content'
import './chat.css'

const MAX_STEPS = 8

/** Asks first for tools that say they destroy something, or for every call when the user wants that. */
const destructive = (tool: Tool | undefined) => tool?.annotations?.destructiveHint === true && tool.annotations.readOnlyHint !== true

export function createChat() {
  let mcp: Mcp | undefined
  let tools: readonly Tool[] = []
  const picked = new Map<string, boolean>()
  let busy: AbortController | undefined
  let conversation: ReturnType<typeof createConversation> | undefined
  let conversationKey = ''
  /** Closers of the apps shown in the transcript. */
  const apps: (() => void)[] = []

  const provider = h('select', { id: 'chat-provider' }, h('option', { value: 'openai' }, 'OpenAI-compatible (Chat Completions)'), h('option', { value: 'anthropic' }, 'Anthropic (Messages)'))
  const endpoint = h('input', { id: 'chat-endpoint', type: 'url', value: DEFAULT_ENDPOINTS.openai, required: true, spellcheck: false })
  const model = h('input', { id: 'chat-model', value: 'gpt-4.1-mini', required: true, spellcheck: false })
  // Never put in storage, a URL or the settings the page saves: it lives in this input and this module only.
  const key = h('input', { id: 'chat-key', type: 'password', autocomplete: 'off', spellcheck: false })
  const askAll = h('input', { id: 'chat-ask-all', type: 'checkbox' })
  const toolList = h('div', { class: 'chat-tools', 'data-testid': 'chat-tools' })
  const log = h('ol', { class: 'log chat-log', 'data-testid': 'chat-log', 'aria-live': 'polite' })
  const input = h('textarea', { id: 'chat-input', rows: 2, placeholder: 'Ask the model something that needs the server’s tools' })
  const send = h('button', { type: 'submit', class: 'primary' }, 'Send')
  const stop = h('button', { type: 'button', hidden: true, onclick: () => busy?.abort(new Error('Stopped')) }, 'Stop')

  provider.addEventListener('change', () => {
    const kind = provider.value as ProviderKind
    endpoint.value = DEFAULT_ENDPOINTS[kind]
    model.value = kind === 'openai' ? 'gpt-4.1-mini' : 'claude-sonnet-4-5'
  })

  const element = h(
    'section',
    { class: 'card chat', 'aria-labelledby': 'chat-title', hidden: true, 'data-testid': 'chat' },
    h('div', { class: 'card-head' }, h('h2', { id: 'chat-title' }, 'Chat with a model'), h('button', { type: 'button', class: 'small', onclick: () => clear() }, 'New chat')),
    h('p', { class: 'hint', 'data-testid': 'chat-key-note' }, 'Your key stays in this page’s memory and is sent only to the endpoint below (never to the MCP server, never stored). Reloading the page forgets it.'),
    h(
      'div',
      { class: 'chat-settings' },
      h('div', { class: 'field' }, h('label', { for: 'chat-provider' }, 'Provider'), provider),
      h('div', { class: 'field' }, h('label', { for: 'chat-endpoint' }, 'Endpoint'), endpoint),
      h('div', { class: 'field' }, h('label', { for: 'chat-model' }, 'Model'), model),
      h('div', { class: 'field' }, h('label', { for: 'chat-key' }, 'API key'), key),
    ),
    h('fieldset', {}, h('legend', {}, 'Tools the model may call'), toolList, h('label', { class: 'check' }, askAll, ' Ask me before every call (otherwise only before destructive tools)')),
    log,
    h('form', { class: 'chat-input', onsubmit: (event: Event) => (event.preventDefault(), void run()) }, h('label', { for: 'chat-input', class: 'visually-hidden' }, 'Message'), input, h('div', { class: 'actions' }, send, stop)),
  )

  function renderTools() {
    toolList.replaceChildren(
      ...(tools.length
        ? tools.map((tool) => {
            const box = h('input', { type: 'checkbox', checked: picked.get(tool.name) ?? true, 'data-tool': tool.name })
            box.addEventListener('change', () => picked.set(tool.name, box.checked))
            return h('label', { class: 'check' }, box, ' ', h('code', {}, tool.name), destructive(tool) && h('span', { class: 'tag' }, 'asks first'))
          })
        : [h('p', { class: 'hint' }, 'The server lists no tools for a model.')]),
    )
  }

  const entry = (role: string, ...children: (Node | string | false | undefined)[]) => {
    const li = h('li', { class: `chat-${role}` }, ...children)
    log.append(li)
    li.scrollIntoView({ block: 'nearest' })
    return li
  }

  function clear() {
    busy?.abort(new Error('New chat'))
    for (const close of apps.splice(0)) close()
    conversation = undefined
    log.replaceChildren()
  }

  function approve(call: ToolCall, li: HTMLElement, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (answer: boolean) => (actions.remove(), li.append(h('p', { class: 'hint' }, answer ? 'You allowed this call.' : 'You declined this call; the model is told so.')), resolve(answer))
      const actions = h(
        'div',
        { class: 'actions', 'data-testid': 'chat-approval' },
        h('span', {}, 'Run this call on the server?'),
        h('button', { type: 'button', class: 'primary', onclick: () => done(true) }, 'Allow'),
        h('button', { type: 'button', onclick: () => done(false) }, 'Deny'),
      )
      li.append(actions)
      signal.addEventListener('abort', () => done(false), { once: true })
    })
  }

  async function callTool(call: ToolCall, signal: AbortSignal): Promise<CallToolResult> {
    const tool = tools.find((t) => t.name === call.name)
    const li = entry('call', h('p', {}, h('strong', {}, 'Model calls '), h('code', {}, call.name)), h('pre', {}, json(call.input, 4000)))
    if (!tool || !mcp) {
      li.append(h('p', { class: 'warn' }, 'No such tool on the server.'))
      return { content: [{ type: 'text', text: `There is no tool named ${call.name}` }], isError: true }
    }
    if ((askAll.checked || destructive(tool)) && !(await approve(call, li, signal))) {
      return { content: [{ type: 'text', text: 'The user declined this tool call.' }], isError: true }
    }
    const running = h('p', { class: 'busy', 'data-testid': 'chat-running' }, 'Running on the server…')
    li.append(running)
    const calling = mcp.callTool(call.name, call.input, { signal })
    // A tool with an MCP App shows it under its call, fed the same call's input and result (only where the page
    // knows a sandbox on another origin to show apps from).
    if (APPS_SANDBOX && hasApp(tool)) {
      const box = h('div', { class: 'chat-app', 'data-testid': 'chat-app' })
      li.append(box)
      apps.push(showApp(box, mcp, tool, call.input, calling))
    }
    try {
      const result = await calling
      running.replaceWith(h('div', { 'data-testid': 'chat-result' }, renderToolResult(result)))
      return result
    } catch (error) {
      running.replaceWith(renderError(error))
      return { content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], isError: true }
    }
  }

  async function run() {
    const text = input.value.trim()
    if (!text || busy || !mcp) return
    if (!key.value) return void entry('error', h('p', { class: 'warn' }, 'Enter an API key first.'))
    const settings: ChatSettings = { kind: provider.value as ProviderKind, endpoint: endpoint.value, model: model.value, key: key.value }
    const offered = tools.filter((tool) => picked.get(tool.name) ?? true)
    // A new provider, endpoint, model or tool choice starts a new conversation (the old history would not fit it).
    const next = JSON.stringify([settings, offered.map((t) => t.name)])
    if (!conversation || next !== conversationKey) {
      conversation = createConversation(settings, offered)
      conversationKey = next
    }
    input.value = ''
    entry('user', h('strong', {}, 'You: '), text)
    busy = new AbortController()
    const { signal } = busy
    send.disabled = true
    stop.hidden = false
    try {
      let turn = await conversation.send(text, signal)
      for (let step = 1; ; step++) {
        if (turn.text) entry('model', h('strong', {}, 'Model: '), turn.text)
        if (!turn.calls.length) break
        if (step >= MAX_STEPS) throw new Error(`Stopped after ${MAX_STEPS} rounds of tool calls`)
        const results = []
        for (const call of turn.calls) results.push({ call, result: await callTool(call, signal) })
        conversation.addResults(results)
        turn = await conversation.send(undefined, signal)
      }
    } catch (error) {
      entry('error', renderError(error))
      // The history may now end in a call without its result; the next message starts afresh.
      conversation = undefined
    } finally {
      busy = undefined
      send.disabled = false
      stop.hidden = true
    }
  }

  return {
    element,
    /** Shows the panel for a connected server; the returned function hides it again. */
    attach(connected: Mcp): () => void {
      mcp = connected
      element.hidden = false
      clear()
      const off = connected.$tools.subscribe((state) => {
        tools = state.items.filter(forModel)
        renderTools()
      })
      return () => {
        off()
        clear()
        mcp = undefined
        element.hidden = true
      }
    },
  }
}
