// A small model endpoint for the Chat panel's end-to-end test, speaking OpenAI's Chat Completions
// (`/v1/chat/completions`) and Anthropic's Messages (`/v1/messages`): the real providers are out of reach here.
// It scripts one tool call, then an answer that quotes the tool's result, and records every request (headers and
// body) so the test can check what the page sent where.
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface StandIn {
  /** The base URL the page's Endpoint field takes (`…/v1`). */
  endpoint: string
  requests: { headers: IncomingHttpHeaders; body: any }[]
  close(): Promise<void>
}

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access',
  'access-control-allow-methods': 'POST',
}

/** `toolCall`: the tool and arguments the scripted model calls first. */
export async function startOpenAiStandIn(toolCall: { name: string; arguments: Record<string, unknown> }): Promise<StandIn> {
  const requests: StandIn['requests'] = []
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end()
    let raw = ''
    req.on('data', (chunk) => (raw += chunk))
    req.on('end', () => {
      const body = JSON.parse(raw || '{}')
      requests.push({ headers: req.headers, body })
      const last = body.messages?.at(-1)
      if (req.url?.endsWith('/messages')) {
        const result = Array.isArray(last?.content) ? last.content.find((block: any) => block.type === 'tool_result') : undefined
        const content = result
          ? [{ type: 'text', text: `The tool answered: ${result.content.map((block: any) => block.text ?? '').join(' ')}` }]
          : [{ type: 'tool_use', id: 'toolu_1', name: toolCall.name, input: toolCall.arguments }]
        res.writeHead(200, { ...cors, 'content-type': 'application/json' })
        return void res.end(JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: body.model, content, stop_reason: result ? 'end_turn' : 'tool_use' }))
      }
      const message =
        last?.role === 'tool'
          ? { role: 'assistant', content: `The tool answered: ${last.content}` }
          : { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: toolCall.name, arguments: JSON.stringify(toolCall.arguments) } }] }
      res.writeHead(200, { ...cors, 'content-type': 'application/json' })
      res.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', model: body.model, choices: [{ index: 0, message, finish_reason: last?.role === 'tool' ? 'stop' : 'tool_calls' }] }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { endpoint: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) }
}
