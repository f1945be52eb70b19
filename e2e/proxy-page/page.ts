// A page on its own origin that reaches an MCP server without CORS through nanomcp/proxy (`?proxy=`): MCP requests
// and the OAuth metadata, registration and token requests alike. Tokens in sessionStorage, so a reload keeps them.
// Its fetch wrapper counts the SSE GET streams open, so a test can see sign-out close them.
import { createMcp, oauth, sessionTokenStorage, StreamableHttpTransport } from '../../src/index'

const query = new URLSearchParams(location.search)
const server = query.get('server') ?? ''
const proxy = query.get('proxy') ?? ''
const mode = query.get('mode') === 'redirect' ? 'redirect' : 'popup'
const out = (id: string, text: string) => void (document.getElementById(id)!.textContent = text)

let open = 0
const counted: typeof fetch = async (input, init) => {
  const response = await fetch(input, init)
  if ((init?.method ?? 'GET') !== 'GET' || !response.body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return response
  out('streams', String(++open))
  const reader = response.body.getReader()
  let ended = false
  const end = () => void (ended || ((ended = true), out('streams', String(--open))))
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read()
        if (chunk.done) {
          end()
          controller.close()
        } else controller.enqueue(chunk.value)
      } catch (error) {
        end()
        controller.error(error)
      }
    },
    cancel(reason) {
      end()
      return reader.cancel(reason)
    },
  })
  // A new Response has no url: the transport must not take that for a redirect.
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}

const auth = oauth({ redirectUri: new URL('callback.html', location.href).href, proxy, storage: sessionTokenStorage(), mode })
const mcp = createMcp(new StreamableHttpTransport(server, { proxy, auth, fetch: counted }), { auth })
mcp.$auth.subscribe((state) => out('auth', state.status + (state.error ? `: ${state.error.message}` : '')))
mcp.$tools.subscribe(({ items, error }) => out('tools', error ? `error: ${error.message}` : items.map((tool) => tool.name).join(' ')))
document.getElementById('sign-in')!.addEventListener('click', () => void mcp.signIn().catch(() => undefined))
document.getElementById('sign-out')!.addEventListener('click', () => void mcp.signOut().catch(() => undefined))
document.getElementById('call')!.addEventListener('click', () => {
  mcp.callTool('greet', { name: 'page' }).then(
    (result) => out('result', (result.content[0] as { text?: string }).text ?? ''),
    (error: Error) => out('result', `error: ${error.message}`),
  )
})
