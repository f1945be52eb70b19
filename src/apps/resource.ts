// Reads a tool's `ui://` resource and checks it: the app MIME type, `text` or a UTF-8 `blob`, a size limit.
import type { UiCsp, UiPermissions } from './types'
import type { Request } from './server'
import { AppResourceError } from '../errors/app-resource-error'
import { APP_MIME } from './extension'

export interface AppResource {
  html: string
  csp: UiCsp
  permissions: UiPermissions
  /** A server-requested `sandbox` attribute for the inner frame (the sandbox page strips `allow-same-origin`). */
  sandbox?: string
}

type Item = { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown; _meta?: { ui?: Record<string, unknown> } }

const object = <T>(value: unknown): T | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as T) : undefined)

export async function readApp(request: Request, uri: string, maxSize: number, signal: AbortSignal): Promise<AppResource> {
  const result = await request('resources/read', { uri }, signal)
  const contents = (Array.isArray(result.contents) ? result.contents : []) as Item[]
  const item = contents.find((c) => c?.uri === uri) ?? contents[0]
  if (!item) throw new AppResourceError('content', `${uri}: resources/read returned no contents`, uri)
  // Parameters may carry spaces or another case (`text/html; profile=mcp-app`); the type itself must match.
  const mime = typeof item.mimeType === 'string' ? item.mimeType.toLowerCase().replace(/\s+/g, '') : ''
  if (mime !== APP_MIME) throw new AppResourceError('mime', `${uri}: MIME type must be ${APP_MIME}, not ${JSON.stringify(item.mimeType)}`, uri)
  let html: string
  if (typeof item.text === 'string') html = item.text
  else if (typeof item.blob === 'string') {
    if (item.blob.length > (maxSize * 4) / 3 + 4) throw tooBig(uri, maxSize)
    try {
      // atob alone yields Latin-1: the bytes are UTF-8, so they are decoded as such.
      html = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(item.blob), (c) => c.charCodeAt(0)))
    } catch {
      throw new AppResourceError('content', `${uri}: blob is not base64 of UTF-8 text`, uri)
    }
  } else throw new AppResourceError('content', `${uri}: the resource has neither text nor blob`, uri)
  if (html.length > maxSize) throw tooBig(uri, maxSize)
  const ui = object<Record<string, unknown>>(item._meta?.ui) ?? {}
  return {
    html,
    csp: object<UiCsp>(ui.csp) ?? {},
    permissions: object<UiPermissions>(ui.permissions) ?? {},
    ...(typeof ui.sandbox === 'string' && { sandbox: ui.sandbox }),
  }
}

const tooBig = (uri: string, max: number) => new AppResourceError('size', `${uri}: the HTML is larger than ${max} characters`, uri)
