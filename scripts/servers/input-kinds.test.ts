// The legacy server's input-kinds scope, driven by nanomcp's own client: open_consent pushes a URL-mode
// elicitation/create (2025-11-25) only to a client that declared URL mode, and tells it when the consent completed;
// link_account fails with -32042 (URL elicitation required) until the call after that error.
import { afterEach, describe, expect, inject, it } from 'vitest'
import { Client, forgetEras } from '../../src/client/client'
import { StreamableHttpTransport } from '../../src/transport/streamable-http'
import { RpcError } from '../../src/errors/rpc-error'
import type { InputRequest, ServerNotification } from '../../src/schemas/types'
import { scoped } from './scoped.ts'

// As in input-kinds.mjs (a .mjs without types: kept literal here).
const INPUT_KINDS_SCOPE = 'input-kinds'
const CONSENT_URL = 'https://example.com/consent?step=1'
const LINK_URL = 'https://example.com/link-account'

const servers = inject('servers')
let count = 0
const inputKinds = () => scoped(servers.legacy, `${INPUT_KINDS_SCOPE}-node-${process.pid}-${++count}`).url
const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text

let client: Client | undefined
afterEach(async () => {
  await client?.close()
  client = undefined
  forgetEras()
})

/** A client on a fresh input-kinds scope whose user answers every URL elicitation with `action`. */
function connect(legacyElicitation: boolean, action: 'accept' | 'decline') {
  const asked: InputRequest[] = []
  const notified: ServerNotification[] = []
  client = new Client(new StreamableHttpTransport(inputKinds()), {
    legacyElicitation,
    onNotification: (n) => notified.push(n),
    onInputRequest: (requests) => (asked.push(...Object.values(requests)), Object.fromEntries(Object.keys(requests).map((key) => [key, { action }]))),
  })
  return { client, asked, notified }
}

// Skipped only in a targeted run whose NANOMCP_SERVERS leaves the legacy server out; npm test starts every server.
describe.skipIf(!servers.legacy)('legacy input-kinds scope: open_consent (URL-mode elicitation)', () => {
  it('asks an opted-in client to open the consent URL, and after acceptance sends elicitation/complete for its id', async () => {
    const { client, asked, notified } = connect(true, 'accept')
    const result = await client.request('tools/call', { name: 'open_consent', arguments: {} })
    expect(client.protocolVersion).toBe('2025-11-25')
    expect(asked).toEqual([
      { method: 'elicitation/create', params: { mode: 'url', message: 'Please approve access on the consent page.', url: CONSENT_URL, elicitationId: 'consent-1' } },
    ])
    expect(textOf(result)).toBe('URL elicitation answered: accept; notifications/elicitation/complete sent for consent-1')
    await expect.poll(() => notified.filter((n) => n.method === 'notifications/elicitation/complete').map((n) => n.params)).toEqual([{ elicitationId: 'consent-1' }])
  })

  it('a decline is reported and no completion is sent', async () => {
    const { client, notified } = connect(true, 'decline')
    const result = await client.request('tools/call', { name: 'open_consent', arguments: {} })
    expect(textOf(result)).toBe('URL elicitation answered: decline')
    // A later request on the same session: anything the server sent about the first call has arrived by then.
    await client.request('tools/list')
    expect(notified.map((n) => n.method)).not.toContain('notifications/elicitation/complete')
  })

  it('a client that did not opt in is never asked: the tool says URL mode was not declared', async () => {
    const { client, asked } = connect(false, 'accept')
    const result = await client.request('tools/call', { name: 'open_consent', arguments: {} })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/needs URL-mode elicitation, which the client did not declare/)
    expect(asked).toEqual([])
  })

  it('other scopes keep their catalogue: the default legacy scope has no open_consent or link_account', async () => {
    client = new Client(new StreamableHttpTransport(servers.legacy.url))
    const { tools } = await client.request('tools/list')
    expect((tools as { name: string }[]).map((t) => t.name)).not.toContain('open_consent')
    expect((tools as { name: string }[]).map((t) => t.name)).not.toContain('link_account')
  })
})

describe.skipIf(!servers.legacy)('legacy input-kinds scope: link_account (-32042, URL elicitation required)', () => {
  const LINK = { mode: 'url', message: 'Link your account on the account page.', url: LINK_URL, elicitationId: 'link-1' }
  const calls = (arrived: string[]) => arrived.filter((m) => m === 'tools/call').length

  /** Records the methods the client sends on the legacy session (not the modern probe), through its trace. */
  function traced(legacyElicitation: boolean, action: 'accept' | 'decline') {
    const methods: string[] = []
    const asked: Record<string, InputRequest>[] = []
    const notified: ServerNotification[] = []
    client = new Client(new StreamableHttpTransport(inputKinds()), {
      legacyElicitation,
      onNotification: (n) => notified.push(n),
      onTrace: (event) => void (event.direction === 'out' && event.era === 'legacy' && 'method' in event.message && methods.push(event.message.method)),
      onInputRequest: (requests) => (asked.push(requests), Object.fromEntries(Object.keys(requests).map((key) => [key, { action }]))),
    })
    return { client, methods, asked, notified }
  }

  it('an opted-in client shows the listed elicitation, retries once accepted, and the call links and completes it', async () => {
    const { client, methods, asked, notified } = traced(true, 'accept')
    const result = await client.request('tools/call', { name: 'link_account', arguments: {} })
    expect(textOf(result)).toBe('Account linked after URL elicitation link-1')
    expect(asked).toEqual([{ 0: { method: 'elicitation/create', params: LINK } }])
    expect(calls(methods)).toBe(2)
    await expect.poll(() => notified.filter((n) => n.method === 'notifications/elicitation/complete').map((n) => n.params)).toEqual([{ elicitationId: 'link-1' }])
  })

  it('a decline leaves the -32042 to the caller, with its elicitations, and the call is not sent again', async () => {
    const { client, methods } = traced(true, 'decline')
    const failure = (await client.request('tools/call', { name: 'link_account', arguments: {} }).catch((e: unknown) => e)) as RpcError
    expect(failure).toBeInstanceOf(RpcError)
    expect(failure.code).toBe(-32042)
    expect(failure.data).toEqual({ elicitations: [LINK] })
    expect(calls(methods)).toBe(1)
  })

  it('a client that did not opt in is never asked: the tool says URL mode was not declared', async () => {
    const { client, asked } = traced(false, 'accept')
    const result = await client.request('tools/call', { name: 'link_account', arguments: {} })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/link_account needs URL-mode elicitation, which the client did not declare/)
    expect(asked).toEqual([])
  })
})
