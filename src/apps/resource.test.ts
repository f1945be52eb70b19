import { describe, expect, it } from 'vitest'
import { readApp } from './resource'
import { AppResourceError } from '../errors/app-resource-error'

const URI = 'ui://t/app.html'
const MIME = 'text/html;profile=mcp-app'
const read = (contents: unknown[], max = 1000) => readApp(async () => ({ contents }), URI, max, new AbortController().signal)
const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)))

describe('readApp', () => {
  it('takes text, and reads _meta.ui csp and permissions from the content item', async () => {
    const app = await read([{ uri: URI, mimeType: MIME, text: '<p>hi</p>', _meta: { ui: { csp: { connectDomains: ['https://a.example'] }, permissions: { camera: {} } } } }])
    expect(app).toEqual({ html: '<p>hi</p>', csp: { connectDomains: ['https://a.example'] }, permissions: { camera: {} } })
  })

  it('decodes a blob as UTF-8, not Latin-1', async () => {
    expect((await read([{ uri: URI, mimeType: MIME, blob: b64('<p>Ærø — 東京</p>') }])).html).toBe('<p>Ærø — 東京</p>')
  })

  it('accepts the MIME type with a space before its parameter', async () => {
    expect((await read([{ uri: URI, mimeType: 'text/html; profile=mcp-app', text: 'x' }])).html).toBe('x')
  })

  it.each([
    ['no contents', [], 'content'],
    ['the wrong MIME type', [{ uri: URI, mimeType: 'text/html', text: 'x' }], 'mime'],
    ['no MIME type', [{ uri: URI, text: 'x' }], 'mime'],
    ['neither text nor blob', [{ uri: URI, mimeType: MIME }], 'content'],
    ['a blob that is not base64', [{ uri: URI, mimeType: MIME, blob: '%%%' }], 'content'],
    ['a blob that is not UTF-8', [{ uri: URI, mimeType: MIME, blob: btoa('\xff\xfe') }], 'content'],
    ['HTML over the limit', [{ uri: URI, mimeType: MIME, text: 'x'.repeat(1001) }], 'size'],
    ['a blob over the limit', [{ uri: URI, mimeType: MIME, blob: b64('x'.repeat(2000)) }], 'size'],
  ])('%s is an AppResourceError', async (_, contents, problem) => {
    const error = await read(contents).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppResourceError)
    expect(error).toMatchObject({ problem, uri: URI })
  })
})
