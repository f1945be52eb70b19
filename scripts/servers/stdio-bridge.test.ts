// The demo's stdio bridge: its refusals (token, page origin) and bad commands, and server-everything in stdio mode
// listed and called through it by nanomcp's client.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/client'
import { StreamableHttpTransport } from '../../src/transport/streamable-http'
// @ts-expect-error plain ESM module without types
import { splitCommand, startStdioBridge } from './stdio-bridge.mjs'

const PAGE = 'http://127.0.0.1:5999'
const EVERYTHING = 'node node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio'
type Bridge = { url: string; token: string; running(): { pid: number }[]; close(): Promise<void> }
let bridge: Bridge | undefined
afterEach(async () => void (await bridge?.close()))

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function start(command: string, origin = PAGE) {
  const response = await fetch(`${bridge!.url}start`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify({ command }) })
  return { response, body: (await response.json()) as { url?: string; pid?: number; error?: { message: string } } }
}

describe('stdio bridge', () => {
  it('splits a command line into words without a shell', () => {
    expect(splitCommand(`npx -y "@scope/pkg" --dir '/a b' x`)).toEqual(['npx', '-y', '@scope/pkg', '--dir', '/a b', 'x'])
    expect(() => splitCommand('node "x')).toThrow(/unclosed/)
  })

  it('binds to 127.0.0.1 with a random token in every URL', async () => {
    bridge = await startStdioBridge({ origins: [PAGE] })
    const other = (await startStdioBridge({ origins: [PAGE] })) as Bridge
    expect(new URL(bridge!.url).hostname).toBe('127.0.0.1')
    expect(bridge!.token.length).toBeGreaterThanOrEqual(32)
    expect(other.token).not.toBe(bridge!.token)
    await other.close()
  })

  it.each([
    ['a missing token', (url: string, token: string) => url.replace(`/${token}/`, '/'), PAGE],
    ['a wrong token', (url: string, token: string) => url.replace(token, 'x'.repeat(token.length)), PAGE],
    ['a page on another origin', (url: string) => url, 'https://evil.example'],
    ['no Origin at all', (url: string) => url, undefined],
  ])('refuses %s with 403, and starts nothing', async (_what, mangle, origin) => {
    bridge = await startStdioBridge({ origins: [PAGE] })
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (origin) headers.origin = origin
    const response = await fetch(`${mangle(bridge!.url, bridge!.token)}start`, { method: 'POST', headers, body: JSON.stringify({ command: EVERYTHING }) })
    expect(response.status).toBe(403)
    if (origin !== PAGE) expect(response.headers.get('access-control-allow-origin')).toBeNull()
    expect(bridge!.running()).toEqual([])
  })

  it('a command that exits at once: 502 naming the command, nothing left running', async () => {
    bridge = await startStdioBridge({ origins: [PAGE] })
    const { response, body } = await start(`node -e "console.error('bad flag'); process.exit(2)"`)
    expect(response.status).toBe(502)
    expect(body.error!.message).toContain('exited at once')
    expect(body.error!.message).toContain('node -e')
    expect(body.error!.message).toContain('bad flag')
    expect(bridge!.running()).toEqual([])
  })

  it('a command that is not found: 502 saying so', async () => {
    bridge = await startStdioBridge({ origins: [PAGE] })
    const { response, body } = await start('no-such-program-here --x')
    expect(response.status).toBe(502)
    expect(body.error!.message).toContain('no-such-program-here was not found')
  })

  it('a command that writes non-JSON to stdout: 502 naming the command, and the process is stopped', async () => {
    bridge = await startStdioBridge({ origins: [PAGE] })
    const { response, body } = await start(`node -e "console.log('Welcome!'); setInterval(() => {}, 1000)"`)
    let message = body.error?.message
    // On a busy machine the line may come after the start's short wait: then the first request fails with it.
    if (response.status === 201) {
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }
      const answer = await fetch(body.url!, { method: 'POST', headers: { origin: PAGE, 'content-type': 'application/json' }, body: JSON.stringify(init) })
      expect(answer.status).toBe(502)
      message = ((await answer.json()) as { error: { message: string } }).error.message
    } else {
      expect(response.status).toBe(502)
      expect(bridge!.running()).toEqual([])
    }
    expect(message).toMatch(/"node -e .*" wrote something that is not JSON-RPC/)
  })

  it('a command sent while the bridge is closing is refused, and nothing is left running after close', async () => {
    bridge = await startStdioBridge({ origins: [PAGE] })
    // A process that ignores the end of its stdin, so close() has to wait before its SIGTERM.
    const stubborn = `node -e "setInterval(() => {}, 1000)"`
    const first = await start(stubborn)
    expect(first.response.status).toBe(201)
    const closing = bridge!.close()
    const late = await start(stubborn).catch(() => undefined)
    await closing
    bridge = undefined
    expect(alive(first.body.pid!)).toBe(false)
    if (late?.body.pid) {
      const pid = late.body.pid
      const left = alive(pid)
      if (left) process.kill(pid)
      expect(left).toBe(false)
    }
  })

  it('two connections to one process using the same request id each get their own answer', async () => {
    bridge = await startStdioBridge({ origins: [PAGE] })
    // A stdio server that answers `slow` after a while and anything else at once, echoing the method.
    const script = join(mkdtempSync(join(tmpdir(), 'bridge-')), 'server.mjs')
    writeFileSync(script, `import readline from 'node:readline'
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line)
  const answer = (id = m.id, method = m.method) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result: { method } }) + '\\n')
  if (m.method === 'notifications/cancelled') answer(m.params.requestId, 'cancelled')
  else if (m.method === 'slow') setTimeout(answer, 300)
  else if (m.method !== 'never') answer()
})
`)
    const { body } = await start(`node ${script}`)
    const call = (method: string) =>
      fetch(body.url!, { method: 'POST', headers: { origin: PAGE, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }) }).then((r) => r.json())
    const within = <T,>(promise: Promise<T>) => Promise.race([promise, new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), 3000))])
    const slow = call('slow')
    await new Promise((resolve) => setTimeout(resolve, 50))
    const fast = call('fast')
    expect(await within(fast)).toEqual({ jsonrpc: '2.0', id: 1, result: { method: 'fast' } })
    expect(await within(slow)).toEqual({ jsonrpc: '2.0', id: 1, result: { method: 'slow' } })
    // A cancellation names the page's own id, and reaches the process as the request it meant.
    const never = call('never')
    await new Promise((resolve) => setTimeout(resolve, 50))
    await fetch(body.url!, { method: 'POST', headers: { origin: PAGE, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }) })
    expect(await within(never)).toEqual({ jsonrpc: '2.0', id: 1, result: { method: 'cancelled' } })
  })

  it('server-everything in stdio mode: listed and called through the bridge by nanomcp, stopped on close', async () => {
    bridge = await startStdioBridge({ origins: [PAGE] })
    const { response, body } = await start(EVERYTHING)
    expect(response.status).toBe(201)
    const client = new Client(new StreamableHttpTransport(body.url!, { headers: { Origin: PAGE } }), { clientInfo: { name: 'bridge-test', version: '1' } })
    const server = await client.connect()
    expect(server.serverInfo?.name).toMatch(/everything/)
    const { tools } = (await client.request('tools/list', {})) as { tools: { name: string }[] }
    expect(tools.map((t) => t.name)).toContain('echo')
    const echoed = (await client.request('tools/call', { name: 'echo', arguments: { message: 'over stdio' } })) as { content: { text: string }[] }
    expect(echoed.content[0]!.text).toContain('over stdio')
    await client.close()
    const pid = body.pid!
    expect(alive(pid)).toBe(true)
    await bridge!.close()
    bridge = undefined
    expect(alive(pid)).toBe(false)
  })
})
