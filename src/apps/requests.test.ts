import { describe, expect, it } from 'vitest'
import { answer, Refusal, type RequestContext } from './requests'
import type { MountAppOptions } from './types'
import type { Tool } from '../schemas/types'

const tools: Tool[] = [
  { name: 'both', inputSchema: { type: 'object' } },
  { name: 'app-only', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] } } },
  { name: 'model-only', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['model'] } } },
] as Tool[]

function setup(options: Partial<MountAppOptions> = {}, appModes?: string[]) {
  const calls: [string, Record<string, unknown>][] = []
  let mode = 'inline'
  const ctx: RequestContext = {
    options: options as MountAppOptions,
    server: {
      $tools: undefined,
      watchLists: async () => ({ kinds: [], stop() {} }),
      tool: async (name) => tools.find((t) => t.name === name),
      request: async (method, params) => (calls.push([method, params]), { ok: method }),
    },
    appModes: () => appModes as never,
    displayMode: () => mode as never,
    setDisplayMode: (m) => (mode = m),
  }
  const ask = (method: string, params: Record<string, unknown> = {}) => answer(ctx, method, params, new AbortController().signal)
  return { ask, calls }
}

const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e as Refusal)

describe('what the host answers an app', () => {
  it('proxies tools/call only for tools the app may call; the rest never reach the server', async () => {
    const { ask, calls } = setup()
    expect(await ask('tools/call', { name: 'both', arguments: {} })).toEqual({ ok: 'tools/call' })
    expect(await ask('tools/call', { name: 'app-only' })).toEqual({ ok: 'tools/call' })
    expect(await refusal(ask('tools/call', { name: 'model-only' }))).toMatchObject({ code: -32602, message: 'tool "model-only" is not callable by apps' })
    expect(await refusal(ask('tools/call', { name: 'unknown' }))).toMatchObject({ code: -32602 })
    expect(await refusal(ask('tools/call', {}))).toMatchObject({ code: -32602 })
    expect(calls.map(([, p]) => p.name)).toEqual(['both', 'app-only'])
  })

  it('proxies reads and lists, answers ping itself, refuses anything else with -32601', async () => {
    const { ask, calls } = setup()
    for (const m of ['resources/read', 'resources/list', 'resources/templates/list', 'prompts/list']) await ask(m, { uri: 'x' })
    expect(await ask('ping')).toEqual({})
    expect(await refusal(ask('sampling/createMessage'))).toMatchObject({ code: -32601 })
    expect(await refusal(ask('prompts/get', { name: 'x' }))).toMatchObject({ code: -32601 })
    expect(calls.map(([m]) => m)).toEqual(['resources/read', 'resources/list', 'resources/templates/list', 'prompts/list'])
  })

  it('refuses ui/* requests whose callback is absent', async () => {
    const { ask } = setup()
    for (const m of ['ui/open-link', 'ui/message', 'ui/update-model-context']) expect(await refusal(ask(m, { url: 'https://x.example' }))).toMatchObject({ code: -32601 })
  })

  it('opens only http(s) links, and passes the callback verdict back', async () => {
    const opened: string[] = []
    const { ask } = setup({ onOpenLink: (url) => void opened.push(url) })
    expect(await ask('ui/open-link', { url: 'https://example.com/a' })).toEqual({ isError: false })
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 42]) {
      expect(await refusal(ask('ui/open-link', { url }))).toMatchObject({ code: -32602 })
    }
    expect(opened).toEqual(['https://example.com/a'])
    const failing = setup({ onOpenLink: () => ({ isError: true }) })
    expect(await failing.ask('ui/open-link', { url: 'http://x.example' })).toEqual({ isError: true })
  })

  it('hands ui/message and model context to their callbacks', async () => {
    const seen: unknown[] = []
    const { ask } = setup({ onMessage: (m) => void seen.push(m), onModelContext: (c) => void seen.push(c) })
    await ask('ui/message', { role: 'user', content: [{ type: 'text', text: 'hi' }] })
    await ask('ui/update-model-context', { structuredContent: { a: 1 } })
    expect(seen).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }, { structuredContent: { a: 1 } }])
    expect(await refusal(ask('ui/message', { role: 'assistant', content: [] }))).toMatchObject({ code: -32602 })
  })

  it('switches display mode only to a mode the app declared, through the callback, and answers the mode in effect', async () => {
    expect(await setup({}, ['inline', 'fullscreen']).ask('ui/request-display-mode', { mode: 'fullscreen' })).toEqual({ mode: 'inline' })
    const host = { onDisplayMode: (m: string) => m as never }
    expect(await setup(host, ['inline']).ask('ui/request-display-mode', { mode: 'fullscreen' })).toEqual({ mode: 'inline' })
    expect(await setup(host, ['inline', 'fullscreen']).ask('ui/request-display-mode', { mode: 'fullscreen' })).toEqual({ mode: 'fullscreen' })
  })
})
