// x-mcp-header validation is a chunk loaded on demand (modern-headers' learnTools): a tools/list whose schemas carry
// an annotation waits for it, within the request's own signal. The chunk is replaced by one that never arrives.
import { describe, expect, it, vi } from 'vitest'
import { AbortError } from '../errors/abort-error'
import { faultKit } from '../testing/fault-kit'
import { result, sendJson } from '../testing/test-server'
import { modern } from '../testing/transport-fixtures'
import { StreamableHttpTransport } from './streamable-http'

// A download that stalls for good.
vi.mock('./x-mcp-header', () => new Promise(() => undefined))

const serve = faultKit()

describe('x-mcp-header code loaded on demand', () => {
  it('a tools/list that needs it ends by its signal when the code never arrives; one without annotations never waits', async () => {
    const annotated = { name: 'regional', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } }
    const plain = { name: 'plain', inputSchema: { type: 'object' } }
    let tools: unknown[] = [annotated]
    const { url } = await serve((request, res) => sendJson(res, result(request.json.id, { tools })))
    const transport = new StreamableHttpTransport(url)
    const controller = new AbortController()
    const listed = transport.request(modern(1, 'tools/list'), { signal: controller.signal })
    setTimeout(() => controller.abort('enough'), 50)
    await expect(listed).rejects.toBeInstanceOf(AbortError)
    tools = [plain]
    await expect(transport.request(modern(2, 'tools/list'))).resolves.toMatchObject({ result: { tools: [plain] } })
    await transport.close()
  })
})
