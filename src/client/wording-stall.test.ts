// The words of a malformed message's error are a chunk loaded on demand; one that never arrives must not hold the
// request: the error comes within 2 s, in zod's fewer words, even for a request without a timeout. The chunk is
// replaced by a download that stalls for good. One test only: vitest settles a second import of a module whose
// first import was given up on, where a browser would keep waiting, so a second test here would not wait at all.
import { describe, expect, it, vi } from 'vitest'
import { ProtocolError } from '../errors/protocol-error'
import { complete, scriptedClients } from '../testing/scripted-client'

vi.mock('../schemas/explain', () => new Promise(() => undefined))

const kit = scriptedClients({ unhandled: true })
const malformed = (seen: Parameters<Parameters<typeof kit.start>[0]>[0]) => complete(seen, { content: [{ type: 'text' }] })

describe("a malformed result whose error's words never arrive", () => {
  it('rejects within 2 s with the ProtocolError, though the request has no timeout', async () => {
    const client = await kit.start(malformed)
    const started = Date.now()
    const failure = (await client.request('tools/call', { name: 'x' }, { timeout: Infinity }).catch((e: unknown) => e)) as ProtocolError
    // The cap is 2 s; the bound leaves room for a busy machine, and a request that waited on would hit the test's timeout.
    expect(Date.now() - started).toBeLessThan(5000)
    expect(failure).toBeInstanceOf(ProtocolError)
    expect(failure.message).toMatch(/^Malformed tools\/call result: result\.content\[0\]/)
  })
})
