// What a mounted app is told about its host after the handshake, in Chromium through the real sandbox page:
// setContext, a colour-scheme change and a resize of the element arrive as `ui/notifications/host-context-changed`
// carrying only what changed, never before `initialized` (a change before the initialize answer is part of that
// answer); and `ui/request-display-mode` never switches to a mode the app did not list.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mountApp } from './mount-app'
import { appResource, APP_URI, rawAppHtml, SANDBOX, type RawAppConfig } from '../testing/raw-app'
import type { AppView, DisplayMode, HostContext, MountAppOptions } from './types'
import type { Tool } from '../schemas/types'

const tool = { name: 'show', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: APP_URI } } } as Tool
const WAIT = { timeout: 15_000 }

type Log = { answer?: { hostContext: HostContext }; method?: string; params?: Record<string, unknown>; modeAnswer?: { mode?: DisplayMode } } | 'INITIALIZED'

let views: AppView[] = []
const originalMatchMedia = window.matchMedia
afterEach(async () => {
  await Promise.allSettled(views.splice(0).map((v) => v.close()))
  window.matchMedia = originalMatchMedia
  document.body.replaceChildren()
})

function mount(config: RawAppConfig, options: Partial<MountAppOptions> = {}, element = document.body.appendChild(document.createElement('div'))) {
  const logs: Log[] = []
  const html = rawAppHtml(config)
  const view = mountApp(element, { mcp: { request: async () => appResource(html) }, tool, sandbox: SANDBOX, teardownTimeout: 200, onLog: (l) => void logs.push(l.data as Log), ...options })
  views.push(view)
  const contextChanges = () => logs.filter((l) => l !== 'INITIALIZED' && l.method === 'ui/notifications/host-context-changed').map((l) => (l as { params: unknown }).params)
  const answer = () => logs.find((l) => l !== 'INITIALIZED' && l.answer) as { answer: { hostContext: HostContext } } | undefined
  return { view, logs, contextChanges, answer }
}

/** A colour scheme the test switches: mountApp reads `prefers-color-scheme` through matchMedia and listens to it. */
function fakeColorScheme() {
  const state = { dark: false }
  const list = Object.assign(new EventTarget(), { media: '' })
  window.matchMedia = ((query: string) =>
    Object.defineProperty(list, 'matches', { configurable: true, get: () => query.includes('dark') && state.dark })) as never
  return {
    set dark(value: boolean) {
      state.dark = value
      list.dispatchEvent(new Event('change'))
    },
  }
}

describe('host-context-changed', () => {
  it('setContext, theme and container size: only the difference, nothing before initialized', async () => {
    const scheme = fakeColorScheme()
    const element = document.body.appendChild(document.createElement('div'))
    element.style.width = '400px'
    const { view, logs, contextChanges, answer } = mount({ delay: 600 }, {}, element)
    // Before the app has even asked: this becomes part of the initialize answer, never a notification.
    view.setContext({ timeZone: 'Pacific/Chatham' })
    await vi.waitFor(() => expect(answer()).toBeDefined(), WAIT)
    expect(answer()!.answer.hostContext).toMatchObject({ timeZone: 'Pacific/Chatham', theme: 'light', containerDimensions: { width: 400 }, platform: 'web' })

    // Answered, not yet initialized: held, and only what differs (platform is already web).
    view.setContext({ locale: 'fr-FR', platform: 'web' })
    await vi.waitFor(() => expect(contextChanges()).toHaveLength(1), WAIT)
    expect(contextChanges()[0]).toEqual({ locale: 'fr-FR' })
    const initializedAt = logs.indexOf('INITIALIZED')
    expect(initializedAt).toBeGreaterThan(0)
    expect(logs.findIndex((l) => l !== 'INITIALIZED' && l.method === 'ui/notifications/host-context-changed')).toBeGreaterThan(initializedAt)
    expect(view.$state.get().status).toBe('ready')

    // The same value again is no change; the next notification is the theme's.
    view.setContext({ locale: 'fr-FR' })
    scheme.dark = true
    await vi.waitFor(() => expect(contextChanges()).toHaveLength(2), WAIT)
    expect(contextChanges()[1]).toEqual({ theme: 'dark' })

    element.style.width = '300px'
    await vi.waitFor(() => expect(contextChanges()).toHaveLength(3), WAIT)
    expect(contextChanges()[2]).toEqual({ containerDimensions: { width: 300 } })
    expect(contextChanges()).toHaveLength(3)
  })

  it('a theme the host fixed is not overridden by the colour scheme', async () => {
    const scheme = fakeColorScheme()
    const { view, contextChanges, answer } = mount({}, { hostContext: { theme: 'dark' } })
    await vi.waitFor(() => expect(view.$state.get().status).toBe('ready'), WAIT)
    expect(answer()!.answer.hostContext.theme).toBe('dark')
    scheme.dark = false
    view.setContext({ locale: 'de-DE' })
    await vi.waitFor(() => expect(contextChanges()).toEqual([{ locale: 'de-DE' }]), WAIT)
  })
})

describe('ui/request-display-mode', () => {
  const askFullscreen = async (modes: DisplayMode[], options: Partial<MountAppOptions>) => {
    const m = mount({ modes, askMode: 'fullscreen' }, options)
    await vi.waitFor(() => expect(m.logs.some((l) => l !== 'INITIALIZED' && l.modeAnswer)).toBe(true), WAIT)
    const modeAnswer = (m.logs.find((l) => l !== 'INITIALIZED' && l.modeAnswer) as { modeAnswer: unknown }).modeAnswer
    return { ...m, modeAnswer }
  }

  it('a mode the app did not list is never switched to, even with a host callback', async () => {
    const onDisplayMode = vi.fn((mode: DisplayMode) => mode)
    const { view, modeAnswer, contextChanges } = await askFullscreen(['inline'], { onDisplayMode })
    expect(modeAnswer).toEqual({ mode: 'inline' })
    expect(onDisplayMode).not.toHaveBeenCalled()
    expect(view.$state.get().displayMode).toBe('inline')
    expect(contextChanges()).toEqual([])
  })

  it('without a host callback the host offers only inline and stays there', async () => {
    const { view, modeAnswer, answer } = await askFullscreen(['inline', 'fullscreen'], {})
    expect(answer()!.answer.hostContext.availableDisplayModes).toEqual(['inline'])
    expect(modeAnswer).toEqual({ mode: 'inline' })
    expect(view.$state.get().displayMode).toBe('inline')
  })

  it('a listed mode goes through the callback; the app is told the new mode', async () => {
    const onDisplayMode = vi.fn((mode: DisplayMode) => mode)
    const { view, modeAnswer, contextChanges } = await askFullscreen(['inline', 'fullscreen'], { onDisplayMode })
    expect(onDisplayMode).toHaveBeenCalledWith('fullscreen')
    expect(modeAnswer).toEqual({ mode: 'fullscreen' })
    expect(view.$state.get().displayMode).toBe('fullscreen')
    await vi.waitFor(() => expect(contextChanges()).toEqual([{ displayMode: 'fullscreen' }]), WAIT)
  })

  it('the callback decides: a host that refuses keeps the mode it has', async () => {
    const { view, modeAnswer, contextChanges } = await askFullscreen(['inline', 'fullscreen'], { onDisplayMode: () => 'inline' })
    expect(modeAnswer).toEqual({ mode: 'inline' })
    expect(view.$state.get().displayMode).toBe('inline')
    expect(contextChanges()).toEqual([])
  })
})
