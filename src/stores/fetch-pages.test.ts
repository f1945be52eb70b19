import { describe, expect, it } from 'vitest'
import { ProtocolError } from '../errors/protocol-error'
import { RpcError } from '../errors/rpc-error'
import { fetchPages } from './fetch-pages'
import { KINDS } from './list-kinds'

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } })

describe('fetchPages', () => {
  it('follows cursors to the end, an empty-string cursor included', async () => {
    const seen: unknown[] = []
    const result = await fetchPages(
      async (_method, params) => {
        seen.push(params.cursor)
        if (params.cursor === undefined) return { tools: [tool('a')], nextCursor: '', ttlMs: 5000, cacheScope: 'public' }
        return { tools: [tool('b')], ttlMs: 100, cacheScope: 'public' }
      },
      KINDS.tools,
      10,
    )
    expect(seen).toEqual([undefined, ''])
    expect(result.items.map((t) => t.name)).toEqual(['a', 'b'])
    expect(result.scope).toBe('public')
    // The earliest page to expire decides.
    expect(result.expiresAt - Date.now()).toBeLessThanOrEqual(100)
  })

  it('fails on a repeated cursor instead of looping', async () => {
    let calls = 0
    const error = await fetchPages(
      async (_m, params) => (calls++, { tools: [tool(`t${calls}`)], nextCursor: params.cursor === 'x' ? 'y' : 'x' }),
      KINDS.tools,
      1000,
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect((error as Error).message).toMatch(/repeated the cursor "x" on page 3/)
    expect(calls).toBe(3)
  })

  it('fails loudly past maxPages', async () => {
    let calls = 0
    const error = await fetchPages(async () => ({ tools: [], nextCursor: `c${++calls}` }), KINDS.tools, 5).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProtocolError)
    expect((error as Error).message).toMatch(/did not end within 5 pages/)
    expect(calls).toBe(5)
  })

  it('keeps the items the client reports invalid apart, with its reasons, and the duplicates of a key', async () => {
    const result = await fetchPages(
      async (_method, _params, onInvalid) => {
        // The client checks every item against its schema and hands the bad ones over (client/validate.ts).
        onInvalid({ uri: 'file:///b' }, 'resources[1].name: required string')
        return { resources: [{ uri: 'file:///a', name: 'a' }, { uri: 'file:///a', name: 'again' }] }
      },
      KINDS.resources,
      10,
    )
    expect(result.items).toEqual([{ uri: 'file:///a', name: 'a' }])
    expect(result.invalid).toEqual([
      { item: { uri: 'file:///b' }, reason: 'resources[1].name: required string' },
      { item: { uri: 'file:///a', name: 'again' }, reason: 'duplicate uri "file:///a"' },
    ])
    expect(result.scope).toBe('private')
    expect(result.expiresAt).toBeLessThanOrEqual(Date.now())
  })

  it('restarts the list once when a cursor is refused, then gives up', async () => {
    const calls: unknown[] = []
    let refusals = 1
    const result = await fetchPages(
      async (_m, params) => {
        calls.push(params.cursor)
        if (params.cursor === 'p2' && refusals-- > 0) throw new RpcError(-32602, 'Invalid cursor')
        return params.cursor ? { prompts: [{ name: 'b' }] } : { prompts: [{ name: 'a' }], nextCursor: 'p2' }
      },
      KINDS.prompts,
      10,
    )
    expect(calls).toEqual([undefined, 'p2', undefined, 'p2'])
    expect(result.items).toEqual([{ name: 'a' }, { name: 'b' }])

    const error = await fetchPages(
      async (_m, params) => {
        if (params.cursor) throw new RpcError(-32602, 'Invalid cursor')
        return { prompts: [], nextCursor: 'p2' }
      },
      KINDS.prompts,
      10,
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcError)
  })

  it('rejects a page without its list', async () => {
    await expect(fetchPages(async () => ({ items: [] }), KINDS.tools, 10)).rejects.toThrow(/has no "tools" array/)
  })
})
