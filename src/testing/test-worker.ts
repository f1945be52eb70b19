// Runs inside a Web Worker for transport.browser.test.ts: the transport must work where there is no window,
// only WorkerGlobalScope (fetch, location, TextEncoder, btoa).
import { StreamableHttpTransport } from '../transport/streamable-http'
import type { NetworkError } from '../errors/network-error'

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }

addEventListener('message', async (event: MessageEvent<{ url: string; unreachable: string }>) => {
  try {
    const transport = new StreamableHttpTransport(event.data.url)
    const list = await transport.request({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } })
    const call = await transport.request({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { _meta: meta, name: 'regional_echo', arguments: { region: 'Köln', text: 'from a worker' } },
    })
    const failure = (await new StreamableHttpTransport(event.data.unreachable)
      .request({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta } })
      .catch((error: unknown) => error)) as NetworkError
    postMessage({
      tools: (list.result!.tools as { name: string }[]).map((tool) => tool.name),
      text: (call.result!.content as { text: string }[])[0]!.text,
      failure: { name: failure.name, possibleCors: failure.possibleCors },
      hasWindow: 'window' in globalThis,
    })
  } catch (error) {
    postMessage({ error: String(error) })
  }
})
