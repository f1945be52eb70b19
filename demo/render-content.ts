// Results and errors as DOM. Every server string goes in as text; media only ever comes from a `data:` URL the
// demo builds itself from base64 and a media type it has checked, never from a URL the server names.
import {
  AbortError,
  HttpError,
  InputRequiredError,
  NetworkError,
  ProtocolError,
  RpcError,
  TimeoutError,
  UnsupportedVersionError,
} from '../src/index'
// The header lists live beside the error that names them (not exported from the package index).
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS } from '../src/errors/network-error'
import { h, isRecord, json } from './dom'

let openResource: ((uri: string) => void) | undefined
/** Where a resource link's "Open" button goes (the detail pane); without one, links are shown as text only. */
export function onOpenResource(handler: ((uri: string) => void) | undefined) {
  openResource = handler
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
const MEDIA_TYPE = /^(image|audio)\/[a-z0-9.+-]+$/i
const str = (value: unknown) => (typeof value === 'string' ? value : '')

/** `data:` URL for image/audio bytes, or undefined when the type or the base64 is not what it claims. */
function mediaUrl(kind: 'image' | 'audio', mimeType: unknown, data: unknown): string | undefined {
  const type = str(mimeType)
  const bytes = str(data).replace(/\s+/g, '')
  if (!MEDIA_TYPE.test(type) || !type.toLowerCase().startsWith(`${kind}/`) || !BASE64.test(bytes)) return undefined
  return `data:${type};base64,${bytes}`
}

const byteSize = (base64: string) => Math.floor((base64.replace(/[\s=]+/g, '').length * 3) / 4)

function media(kind: 'image' | 'audio', mimeType: unknown, data: unknown, alt: string): HTMLElement {
  const src = mediaUrl(kind, mimeType, data)
  if (!src) return h('p', { class: 'warn' }, `Unusable ${kind}: media type “${str(mimeType)}” or its base64 data is invalid.`)
  return kind === 'image' ? h('img', { src, alt, class: 'media' }) : h('audio', { src, controls: true, class: 'media' })
}

/** A content block's or resource's `annotations` (audience, priority, lastModified) as one quiet line. */
export function renderAnnotations(annotations: unknown): HTMLElement | undefined {
  if (!isRecord(annotations)) return undefined
  const parts: string[] = []
  if (Array.isArray(annotations.audience) && annotations.audience.length) parts.push(`for ${annotations.audience.map(String).join(' and ')}`)
  if (typeof annotations.priority === 'number') parts.push(`priority ${annotations.priority}`)
  if (typeof annotations.lastModified === 'string') parts.push(`modified ${annotations.lastModified}`)
  if (!parts.length) return undefined
  return h('p', { class: 'annotations', 'data-testid': 'annotations' }, parts.join(' · '))
}

function block(kind: string, label: string, ...body: (Node | string | false | undefined)[]) {
  return h('div', { class: `block block-${kind}` }, h('div', { class: 'block-label' }, label), ...body)
}

// Types whose bytes are text: a server may send a text/plain or JSON file as a blob all the same.
const TEXT_TYPE = /^(text\/[\w.+-]+|application\/([\w.+-]+\+)?(json|xml|yaml|javascript)|application\/x-yaml)$/i
const TEXT_LIMIT = 200_000

/** The blob's bytes as UTF-8 text, or undefined when they are not valid UTF-8 (or the base64 is broken). */
function blobText(base64: string): string | undefined {
  try {
    const binary = atob(base64.replace(/\s+/g, ''))
    const bytes = Uint8Array.from(binary.slice(0, TEXT_LIMIT), (c) => c.charCodeAt(0))
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/** One resource's contents (`TextResourceContents` or `BlobResourceContents`). */
export function renderResourceContents(contents: unknown): HTMLElement {
  if (!isRecord(contents)) return block('unknown', 'resource', h('pre', {}, json(contents)))
  const mime = str(contents.mimeType)
  const label = `${str(contents.uri)}${mime ? ` · ${mime}` : ''}`
  const annotations = renderAnnotations(contents.annotations)
  if (typeof contents.text === 'string') return block('resource', label, annotations, h('pre', {}, contents.text))
  if (typeof contents.blob === 'string') {
    const kind = mime.startsWith('image/') ? 'image' : mime.startsWith('audio/') ? 'audio' : undefined
    const text = TEXT_TYPE.test(mime.split(';')[0]!.trim()) ? blobText(contents.blob) : undefined
    return block(
      'resource',
      label,
      annotations,
      h('p', { class: 'hint' }, text !== undefined ? `Text sent as a blob, ${byteSize(contents.blob)} bytes` : `Binary, ${byteSize(contents.blob)} bytes`),
      text !== undefined && h('pre', { 'data-testid': 'blob-text' }, text),
      kind && media(kind, mime, contents.blob, `resource ${str(contents.uri)}`),
    )
  }
  return block('resource', label, h('pre', {}, json(contents)))
}

/** One `ContentBlock`: text, image, audio, resource_link or an embedded resource. */
export function renderContent(content: unknown): HTMLElement {
  if (!isRecord(content)) return block('unknown', 'unrecognised content', h('pre', {}, json(content)))
  const rendered = contentBlock(content)
  const annotations = renderAnnotations(content.annotations)
  if (annotations) rendered.querySelector('.block-label')?.after(annotations)
  return rendered
}

function contentBlock(content: Record<string, unknown>): HTMLElement {
  switch (content.type) {
    case 'text':
      return block('text', 'text', h('pre', {}, str(content.text)))
    case 'image':
      return block('image', `image · ${str(content.mimeType)}`, media('image', content.mimeType, content.data, 'image from the server'))
    case 'audio':
      return block('audio', `audio · ${str(content.mimeType)}`, media('audio', content.mimeType, content.data, ''))
    case 'resource':
      return renderResourceContents(content.resource)
    case 'resource_link':
      return block(
        'link',
        'resource link',
        h(
          'p',
          {},
          h('code', {}, str(content.uri)),
          openResource &&
            str(content.uri) &&
            ' ',
          openResource &&
            str(content.uri) &&
            h('button', { type: 'button', class: 'small', 'data-testid': 'open-resource', onclick: () => openResource?.(str(content.uri)) }, 'Open'),
        ),
        str(content.description) && h('p', { class: 'hint' }, str(content.description)),
      )
    default:
      return block('unknown', `content type “${str(content.type)}”`, h('pre', {}, json(content)))
  }
}

/** A `tools/call` result: content blocks, structured content, and `isError` said plainly. */
export function renderToolResult(result: Record<string, unknown>): HTMLElement {
  const content = Array.isArray(result.content) ? result.content : []
  return h(
    'div',
    { class: result.isError ? 'result result-tool-error' : 'result', 'data-testid': 'tool-result' },
    result.isError === true &&
      h('p', { class: 'result-head' }, 'The tool ran and reported an error (isError: true). The server itself answered normally.'),
    content.map(renderContent),
    result.structuredContent !== undefined &&
      block('structured', 'structuredContent', h('pre', {}, json(result.structuredContent))),
    !content.length && result.structuredContent === undefined && h('p', { class: 'hint' }, 'The result has no content.'),
  )
}

/** A `prompts/get` result: each message with its role. */
export function renderPromptResult(result: Record<string, unknown>): HTMLElement {
  const messages = Array.isArray(result.messages) ? result.messages : []
  return h(
    'div',
    { class: 'result', 'data-testid': 'prompt-result' },
    str(result.description) && h('p', { class: 'hint' }, str(result.description)),
    messages.map((m) =>
      h('div', { class: 'message' }, h('span', { class: 'role' }, isRecord(m) ? str(m.role) : '?'), renderContent(isRecord(m) ? m.content : m)),
    ),
  )
}

/** A `resources/read` result. */
export function renderReadResult(result: Record<string, unknown>): HTMLElement {
  const contents = Array.isArray(result.contents) ? result.contents : []
  return h(
    'div',
    { class: 'result', 'data-testid': 'resource-result' },
    contents.map(renderResourceContents),
    !contents.length && h('p', { class: 'hint' }, 'The resource is empty.'),
  )
}

/** Any failure, with the kind spelled out: a JSON-RPC error is the server refusing, not the tool failing. */
export function renderError(error: unknown): HTMLElement {
  const message = error instanceof Error ? error.message : String(error)
  const box = (title: string, ...body: (Node | string | false | undefined)[]) =>
    h('div', { class: 'error', role: 'alert', 'data-testid': 'error' }, h('strong', {}, title), ...body)
  if (error instanceof RpcError) {
    return box(
      `JSON-RPC error ${error.code}`,
      h('p', {}, message),
      error.data !== undefined && h('pre', {}, json(error.data)),
      h('p', { class: 'hint' }, 'The server refused the request; the tool (if any) did not run.'),
    )
  }
  if (error instanceof NetworkError && error.possibleCors) {
    return box(
      'Could not reach the server — most likely CORS',
      h(
        'p',
        {},
        'The browser got no answer from ',
        h('code', {}, error.url),
        '. Either the server is not running, or it does not let pages from other origins talk to it. ' +
          'A cross-origin MCP server must answer preflights (OPTIONS) and responses with:',
      ),
      h(
        'pre',
        { class: 'cors' },
        `Access-Control-Allow-Origin: ${location.origin}\n` +
          'Access-Control-Allow-Methods: GET, POST, DELETE\n' +
          `Access-Control-Allow-Headers: ${CORS_ALLOW_HEADERS}\n` +
          `Access-Control-Expose-Headers: ${CORS_EXPOSE_HEADERS}`,
      ),
      h('details', {}, h('summary', {}, 'Full error'), h('p', {}, message)),
    )
  }
  const titles: [new (...args: never[]) => Error, string][] = [
    [NetworkError, 'Network error'],
    [HttpError, `HTTP error${error instanceof HttpError ? ` ${error.status}` : ''}`],
    [TimeoutError, 'Timed out'],
    [AbortError, 'Cancelled'],
    [ProtocolError, 'Protocol error: the server sent something that is not valid MCP'],
    [UnsupportedVersionError, 'No common protocol revision'],
    [InputRequiredError, 'The server needs input the demo could not give'],
  ]
  const title = titles.find(([cls]) => error instanceof cls)?.[1] ?? 'Error'
  return box(title, h('p', {}, message))
}
