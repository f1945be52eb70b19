import { describe, expect, it } from 'vitest'
import { HttpError, NetworkError, RpcError } from '../src/index'
import { renderAnnotations, renderContent, renderError, renderReadResult, renderToolResult } from './render-content'

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const MARKUP = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'

describe('renderContent', () => {
  it('shows text as text, whatever it contains', () => {
    const el = renderContent({ type: 'text', text: MARKUP })
    expect(el.querySelector('img, script')).toBeNull()
    expect(el.querySelector('pre')?.textContent).toBe(MARKUP)
  })

  it('builds image and audio sources only from checked base64 and media types', () => {
    const image = renderContent({ type: 'image', mimeType: 'image/png', data: PIXEL }).querySelector('img')
    expect(image?.getAttribute('src')).toBe(`data:image/png;base64,${PIXEL}`)
    const audio = renderContent({ type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' }).querySelector('audio')
    expect(audio?.getAttribute('src')).toBe('data:audio/wav;base64,UklGRg==')

    for (const bad of [
      { type: 'image', mimeType: 'image/png', data: 'not base64!' },
      { type: 'image', mimeType: 'text/html', data: PIXEL },
      { type: 'image', mimeType: 'image/png;x=1', data: PIXEL },
      { type: 'audio', mimeType: 'image/png', data: PIXEL },
      { type: 'image', mimeType: 'image/png', data: 'javascript:alert(1)' },
    ]) {
      const el = renderContent(bad)
      expect(el.querySelector('img, audio'), JSON.stringify(bad)).toBeNull()
      expect(el.textContent).toMatch(/Unusable/)
    }
  })

  it('shows embedded text and binary resources, and resource links without following them', () => {
    expect(renderContent({ type: 'resource', resource: { uri: 'a://t', text: 'hello' } }).textContent).toContain('hello')
    const blob = renderContent({ type: 'resource', resource: { uri: 'a://b', mimeType: 'application/gzip', blob: 'AAAA' } })
    expect(blob.textContent).toContain('Binary, 3 bytes')
    const link = renderContent({ type: 'resource_link', uri: 'https://example.com/x', name: 'x' })
    expect(link.querySelector('a')).toBeNull()
    expect(link.textContent).toContain('https://example.com/x')
  })

  it('shows a text blob as its text (as text, never markup), and bytes that are not UTF-8 as binary', () => {
    const text = btoa(MARKUP)
    const el = renderReadResult({ contents: [{ uri: 'a://t', mimeType: 'text/plain; charset=utf-8', blob: text }] })
    expect(el.querySelector('[data-testid="blob-text"]')?.textContent).toBe(MARKUP)
    expect(el.querySelector('img, script')).toBeNull()
    const latin1 = renderReadResult({ contents: [{ uri: 'a://l', mimeType: 'text/plain', blob: btoa('\xff\xfe caf\xe9') }] })
    expect(latin1.querySelector('[data-testid="blob-text"]')).toBeNull()
    expect(latin1.textContent).toContain('Binary, 7 bytes')
    const broken = renderReadResult({ contents: [{ uri: 'a://b', mimeType: 'text/plain', blob: '%%%' }] })
    expect(broken.textContent).toContain('Binary')
  })

  it('shows content annotations as one line, and nothing for none', () => {
    const el = renderContent({ type: 'text', text: 'hi', annotations: { audience: ['user'], priority: 0.5, lastModified: '2026-01-02T03:04:05Z' } })
    expect(el.querySelector('[data-testid="annotations"]')?.textContent).toBe('for user · priority 0.5 · modified 2026-01-02T03:04:05Z')
    expect(renderAnnotations({})).toBeUndefined()
    expect(renderAnnotations('<b>x</b>')).toBeUndefined()
  })

  it('shows unknown content types as JSON', () => {
    expect(renderContent({ type: 'hologram', depth: 3 }).textContent).toContain('"depth": 3')
  })
})

describe('results and errors', () => {
  it('tells an isError tool result apart from a normal one', () => {
    const failed = renderToolResult({ content: [{ type: 'text', text: 'boom' }], isError: true })
    expect(failed.className).toContain('result-tool-error')
    expect(failed.textContent).toContain('isError: true')
    const ok = renderToolResult({ content: [], structuredContent: { sum: 3 } })
    expect(ok.className).not.toContain('error')
    expect(ok.textContent).toContain('"sum": 3')
  })

  it('reads binary resources as images when they are images', () => {
    const el = renderReadResult({ contents: [{ uri: 'a://p', mimeType: 'image/png', blob: PIXEL }] })
    expect(el.querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/png;base64,/)
  })

  it('names the kind of failure', () => {
    const rpc = renderError(new RpcError(-32602, 'Tool echo not found', { name: 'echo' }))
    expect(rpc.textContent).toContain('JSON-RPC error -32602')
    expect(rpc.textContent).toContain('did not run')
    expect(renderError(new HttpError(502, new Headers(), 'bad gateway')).textContent).toContain('HTTP error 502')
    const cors = renderError(new NetworkError('http://127.0.0.1:1/mcp', new TypeError('Failed to fetch'), true))
    expect(cors.querySelector('pre.cors')?.textContent).toContain(`Access-Control-Allow-Origin: ${location.origin}`)
    expect(renderError(new NetworkError('http://x/', new Error('refused'), false)).textContent).toContain('Network error')
    expect(renderError(new Error(MARKUP)).querySelector('img, script')).toBeNull()
  })
})
