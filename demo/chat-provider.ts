// One conversation with a model over its provider's own HTTP API (OpenAI-compatible Chat Completions, or
// Anthropic Messages), with the server's tools in nanomcp/ai's plain formats. The key goes in a header to the
// endpoint the user typed and nowhere else: no credentials (cookies), no redirects followed to another place.
import type { CallToolResult, Tool } from '../src/index'
import { anthropicToolResult, anthropicTools, mcpToolName, openaiToolResult, openaiTools } from '../src/ai/index'

export type ProviderKind = 'openai' | 'anthropic'

export interface ChatSettings {
  kind: ProviderKind
  /** Base URL, e.g. https://api.openai.com/v1 or https://api.anthropic.com/v1. */
  endpoint: string
  model: string
  key: string
}

export interface ToolCall {
  id: string
  /** The MCP tool's name (mapped back from the provider-safe name the model used). */
  name: string
  input: Record<string, unknown>
}

export interface Turn {
  text: string
  calls: ToolCall[]
}

export const DEFAULT_ENDPOINTS: Record<ProviderKind, string> = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com/v1' }

/** The endpoint refused or answered something that is no reply of its API. */
export class ProviderError extends Error {
  override name = 'ProviderError'
}

async function post(url: string, headers: Record<string, string>, body: unknown, signal: AbortSignal): Promise<any> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), credentials: 'omit', redirect: 'error', signal })
  const text = await response.text()
  if (!response.ok) throw new ProviderError(`${url} answered HTTP ${response.status}: ${text.slice(0, 300)}`)
  try {
    return JSON.parse(text)
  } catch {
    throw new ProviderError(`${url} answered something that is not JSON`)
  }
}

const parseArgs = (raw: unknown): Record<string, unknown> => {
  try {
    const value = typeof raw === 'string' ? JSON.parse(raw || '{}') : raw
    return value && typeof value === 'object' ? value : {}
  } catch {
    return {}
  }
}

export interface Conversation {
  /** Sends the user's words (or, with none, the tool results added since) and returns the model's turn. */
  send(userText: string | undefined, signal: AbortSignal): Promise<Turn>
  /** The results of the last turn's calls, in its order, for the next send(). */
  addResults(results: { call: ToolCall; result: CallToolResult }[]): void
}

export function createConversation(settings: ChatSettings, tools: readonly Tool[]): Conversation {
  const base = settings.endpoint.replace(/\/+$/, '')
  const back = (name: string) => mcpToolName(name, tools) ?? name
  const messages: any[] = []
  if (settings.kind === 'openai') {
    const definitions = openaiTools(tools, { api: 'chat' })
    return {
      async send(userText, signal) {
        if (userText !== undefined) messages.push({ role: 'user', content: userText })
        const reply = await post(`${base}/chat/completions`, { authorization: `Bearer ${settings.key}` }, { model: settings.model, messages, ...(definitions.length ? { tools: definitions } : {}) }, signal)
        const message = reply?.choices?.[0]?.message
        if (!message) throw new ProviderError('The reply has no choices[0].message')
        messages.push(message)
        const calls = (message.tool_calls ?? []).map((call: any) => ({ id: String(call.id), name: back(String(call.function?.name)), input: parseArgs(call.function?.arguments) }))
        return { text: typeof message.content === 'string' ? message.content : '', calls }
      },
      addResults(results) {
        for (const { call, result } of results) messages.push(openaiToolResult(result, call.id, { api: 'chat' }))
      },
    }
  }
  const definitions = anthropicTools(tools)
  const headers = { 'x-api-key': settings.key, 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true' }
  return {
    async send(userText, signal) {
      if (userText !== undefined) messages.push({ role: 'user', content: userText })
      const reply = await post(`${base}/messages`, headers, { model: settings.model, max_tokens: 1024, messages, ...(definitions.length ? { tools: definitions } : {}) }, signal)
      if (!Array.isArray(reply?.content)) throw new ProviderError('The reply has no content array')
      messages.push({ role: 'assistant', content: reply.content })
      const text = reply.content.filter((block: any) => block.type === 'text').map((block: any) => String(block.text)).join('\n')
      const calls = reply.content.filter((block: any) => block.type === 'tool_use').map((block: any) => ({ id: String(block.id), name: back(String(block.name)), input: parseArgs(block.input) }))
      return { text, calls }
    },
    addResults(results) {
      messages.push({ role: 'user', content: results.map(({ call, result }) => anthropicToolResult(result, call.id)) })
    },
  }
}
