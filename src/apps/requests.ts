// What the host answers to an app's requests: its own `ui/*` methods through the mountApp callbacks, and the MCP
// methods it proxies to the same server, with the tool's visibility enforced before anything leaves the page.
import type { DisplayMode, MountAppOptions } from './types'
import type { Server } from './server'
import { appCallable } from './visibility'

/** A JSON-RPC error for the app. */
export class Refusal {
  constructor(
    readonly code: number,
    readonly message: string,
  ) {}
}

export const NOT_FOUND = -32601
export const INVALID_PARAMS = -32602

/** MCP methods an app may send through the host, as they are. `tools/call` is checked first. */
const PROXIED = new Set(['tools/call', 'resources/read', 'resources/list', 'resources/templates/list', 'prompts/list'])

export interface RequestContext {
  options: MountAppOptions
  server: Server
  /** The modes the app said it supports (`appCapabilities.availableDisplayModes`). */
  appModes(): DisplayMode[] | undefined
  displayMode(): DisplayMode
  setDisplayMode(mode: DisplayMode): void
}

const isError = (value: unknown) => ({ isError: !!(value as { isError?: boolean } | undefined)?.isError })

export async function answer(ctx: RequestContext, method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
  const o = ctx.options
  switch (method) {
    case 'ping':
      return {}
    case 'ui/open-link': {
      const url = params.url
      if (!o.onOpenLink) break
      // Only web links: javascript:, data: or file: URLs from an app must never reach window.open.
      if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) throw new Refusal(INVALID_PARAMS, 'ui/open-link accepts only http(s) URLs')
      return isError(await o.onOpenLink(url))
    }
    case 'ui/message':
      if (!o.onMessage) break
      if (params.role !== 'user' || !Array.isArray(params.content)) throw new Refusal(INVALID_PARAMS, 'ui/message needs role "user" and a content list')
      return isError(await o.onMessage({ role: 'user', content: params.content }))
    case 'ui/update-model-context':
      if (!o.onModelContext) break
      await o.onModelContext(params as Parameters<NonNullable<MountAppOptions['onModelContext']>>[0])
      return {}
    case 'ui/request-display-mode': {
      const mode = params.mode as DisplayMode
      // A mode the app did not declare is never switched to; nor is any without a host callback.
      if (o.onDisplayMode && ctx.appModes()?.includes(mode)) ctx.setDisplayMode(await o.onDisplayMode(mode))
      return { mode: ctx.displayMode() }
    }
  }
  if (!PROXIED.has(method)) throw new Refusal(NOT_FOUND, `method not found: ${method}`)
  if (method === 'tools/call') {
    const name = params.name
    if (typeof name !== 'string') throw new Refusal(INVALID_PARAMS, 'tools/call needs a tool name')
    if (!appCallable(await ctx.server.tool(name, signal))) throw new Refusal(INVALID_PARAMS, `tool "${name}" is not callable by apps`)
  }
  return ctx.server.request(method, params, signal)
}
