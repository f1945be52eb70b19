import { describe, expect, it } from 'vitest'
import { appCallable, modelVisible, uiResourceUri } from './visibility'
import { AppResourceError } from '../errors/app-resource-error'
import type { Tool } from '../schemas/types'

const tool = (meta?: Record<string, unknown>): Tool => ({ name: 't', inputSchema: { type: 'object' }, ...(meta && { _meta: meta }) }) as Tool

describe('visibility', () => {
  it.each([
    ['absent', undefined, true, true],
    ['no ui', {}, true, true],
    ['both', { ui: { visibility: ['model', 'app'] } }, true, true],
    ['app only', { ui: { visibility: ['app'] } }, false, true],
    ['model only', { ui: { visibility: ['model'] } }, true, false],
    ['empty list: neither', { ui: { visibility: [] } }, false, false],
    ['junk (not a list): as absent', { ui: { visibility: 'app' } }, true, true],
  ])('%s', (_, meta, model, app) => {
    expect(modelVisible(tool(meta))).toBe(model)
    expect(appCallable(tool(meta))).toBe(app)
  })

  it('an unknown tool is not callable by apps', () => {
    expect(appCallable(undefined)).toBe(false)
  })
})

describe('uiResourceUri', () => {
  it('reads the nested key first, then the flat one', () => {
    expect(uiResourceUri(tool({ ui: { resourceUri: 'ui://a/x.html' }, 'ui/resourceUri': 'ui://b/y.html' }))).toBe('ui://a/x.html')
    expect(uiResourceUri(tool({ 'ui/resourceUri': 'ui://b/y.html' }))).toBe('ui://b/y.html')
  })

  it('a tool without a UI is an AppResourceError no-ui', () => {
    expect(() => uiResourceUri(tool())).toThrow(expect.objectContaining({ name: 'AppResourceError', problem: 'no-ui' }))
  })

  it.each([['https://x/app.html'], ['file:///etc/passwd'], [42]])('refuses resourceUri %s', (uri) => {
    expect(() => uiResourceUri(tool({ ui: { resourceUri: uri } }))).toThrow(AppResourceError)
    expect(() => uiResourceUri(tool({ ui: { resourceUri: uri } }))).toThrow(expect.objectContaining({ problem: 'uri' }))
  })
})
