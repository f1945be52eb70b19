// mountApp's refusals at the call and the errors it puts in $state, in Chromium, with a stand-in `mcp` that
// answers resources/read itself (the real servers and the real sandbox are in e2e/apps.spec.ts).
import { afterEach, describe, expect, it } from 'vitest'
import { mountApp } from './mount-app'
import { AppResourceError } from '../errors/app-resource-error'
import { AppSandboxError } from '../errors/app-sandbox-error'
import type { AppState } from './types'
import type { Tool } from '../schemas/types'

const tool = { name: 'show', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://t/app.html' } } } as Tool
const SANDBOX = 'http://localhost:1/sandbox.html'
const reading = (contents: unknown[]) => ({ request: async () => ({ contents }) })
const element = () => document.body.appendChild(document.createElement('div'))
const settled = (state: { get(): AppState; listen(fn: (s: AppState) => void): () => void }) =>
  new Promise<AppState>((resolve) => {
    if (state.get().status !== 'loading') return resolve(state.get())
    const stop = state.listen((s) => s.status !== 'loading' && (stop(), resolve(s)))
  })

afterEach(() => document.body.replaceChildren())

describe('mountApp refuses wrong arguments at the call', () => {
  const mcp = reading([])
  it.each([
    ['no element', () => mountApp(undefined as never, { mcp, tool, sandbox: SANDBOX }), TypeError],
    ['no mcp', () => mountApp(element(), { tool, sandbox: SANDBOX } as never), TypeError],
    ['a tool without a UI', () => mountApp(element(), { mcp, tool: { name: 'x', inputSchema: { type: 'object' } } as Tool, sandbox: SANDBOX }), AppResourceError],
    ['a resourceUri that is not ui://', () => mountApp(element(), { mcp, tool: { ...tool, _meta: { ui: { resourceUri: 'https://x/a.html' } } }, sandbox: SANDBOX }), AppResourceError],
    ['a sandbox on this page origin', () => mountApp(element(), { mcp, tool, sandbox: `${location.origin}/sandbox.html` }), AppSandboxError],
    ['a relative sandbox URL (this origin)', () => mountApp(element(), { mcp, tool, sandbox: '/sandbox.html' }), AppSandboxError],
    ['a javascript: sandbox URL', () => mountApp(element(), { mcp, tool, sandbox: 'javascript:alert(1)' }), AppSandboxError],
  ])('%s', (_, call, type) => {
    expect(call).toThrow(type)
    expect(document.querySelector('iframe')).toBeNull()
  })
})

describe('mountApp puts resource problems in $state', () => {
  it('the wrong MIME type: error AppResourceError mime, no frame', async () => {
    const view = mountApp(element(), { mcp: reading([{ uri: 'ui://t/app.html', mimeType: 'text/html', text: 'x' }]), tool, sandbox: SANDBOX })
    expect(view.$state.get().status).toBe('loading')
    const state = await settled(view.$state)
    expect(state.status).toBe('error')
    expect(state.error).toBeInstanceOf(AppResourceError)
    expect(state.error).toMatchObject({ problem: 'mime' })
    expect(document.querySelector('iframe')).toBeNull()
  })

  it('a CSP domain that smuggles a directive: error AppResourceError csp, no frame', async () => {
    const contents = [{ uri: 'ui://t/app.html', mimeType: 'text/html;profile=mcp-app', text: 'x', _meta: { ui: { csp: { connectDomains: ["https://a.example; script-src 'unsafe-eval'"] } } } }]
    const state = await settled(mountApp(element(), { mcp: reading(contents), tool, sandbox: SANDBOX }).$state)
    expect(state.error).toMatchObject({ name: 'AppResourceError', problem: 'csp' })
    expect(document.querySelector('iframe')).toBeNull()
  })

  it('a failing resources/read: its error in $state', async () => {
    const mcp = { request: async () => Promise.reject(new Error('server down')) }
    const state = await settled(mountApp(element(), { mcp, tool, sandbox: SANDBOX }).$state)
    expect(state.status).toBe('error')
    expect(state.error?.message).toBe('server down')
  })

  it('an aborted signal closes the view before anything loads', async () => {
    const view = mountApp(element(), { mcp: reading([]), tool, sandbox: SANDBOX, signal: AbortSignal.abort() })
    await view.close()
    expect(view.$state.get().status).toBe('closed')
    expect(document.querySelector('iframe')).toBeNull()
  })
})
