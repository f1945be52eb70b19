// Builds the page's Mcp from the connection form: nanomcp/shared when sharing across tabs, else createMcp over the chosen transport.
import { createMcp, oauth, SseTransport, StreamableHttpTransport, type ClientOptions, type Mcp } from '../src/index'
import { createSharedMcp } from '../src/shared/index'
// Not part of the package's index; the demo reports the library's own version as its client version.
import { PACKAGE_VERSION } from '../src/version'
import type { Settings } from './connection'
import { ROUND_CAPABILITIES } from './input-round'
// Servers offer their tools' apps (MCP Apps) to clients that declare the extension; the demo can show them.
import { UI_EXTENSION } from '../src/apps/extension'
import { sharedAsMcp } from './shared-option'
import { oauthOptions } from './sign-in'
import { proxyOptions } from './via-proxy'

/** What the page does with the client's callbacks; `answerInput` is told which Mcp asked. */
export interface PageHooks extends Required<Pick<ClientOptions, 'onTrace' | 'onNotification'>> {
  answerInput(mcp: Mcp, requests: Parameters<NonNullable<ClientOptions['onInputRequest']>>[0], signal: AbortSignal): Promise<Record<string, unknown>>
}

export function openMcp(settings: Settings & { headers: Record<string, string> }, share: boolean, fetch: typeof globalThis.fetch, hooks: PageHooks): Mcp {
  const { url, transport, headers, timeout, legacyElicitation } = settings
  // OAuth unless the user brought credentials of their own: a 401 then offers Sign in (popup) in the panel.
  const ownCredentials = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')
  const client = {
    clientInfo: { name: 'nanomcp-demo', version: PACKAGE_VERSION },
    // Only what answerRound answers: form and URL elicitation, sampling (by hand) and roots (the user's list).
    capabilities: { ...ROUND_CAPABILITIES, extensions: UI_EXTENSION },
    timeout: timeout ? timeout * 1000 : undefined,
    legacyElicitation,
    // The one toggle answers every kind of request an older server may send: elicitation, sampling, roots.
    legacySampling: legacyElicitation,
    legacyRoots: legacyElicitation,
    // Tools the server runs as tasks are polled to the end by the library; the Tasks card shows them.
    tasks: true,
    onInputRequest: (requests, context) => hooks.answerInput(mcp, requests, context.signal),
    onTrace: hooks.onTrace,
    onNotification: hooks.onNotification,
  } satisfies ClientOptions
  let mcp: Mcp
  if (share) {
    // The worker builds its own transport (Streamable HTTP, HTTP+SSE fallback): the transport choice and the
    // page's HTTP diagnostics do not apply; headers must be plain strings, OAuth runs in the worker.
    const oauthOption = ownCredentials ? {} : { oauth: oauthOptions() }
    mcp = sharedAsMcp(createSharedMcp(url, { headers, ...oauthOption, ...client }))
  } else {
    const proxy = proxyOptions(url)
    const auth = ownCredentials ? undefined : oauth({ ...oauthOptions(), mode: 'popup', proxy: proxy.oauth })
    const options = { headers, fetch, auth, proxy: proxy.transport }
    const target = transport === 'sse' ? new SseTransport(url, options) : new StreamableHttpTransport(url, options)
    // "Streamable HTTP" means exactly that: a refused POST is reported as it is, not retried over HTTP+SSE.
    if (transport === 'http') Object.defineProperty(target, 'legacySse', { value: undefined })
    mcp = createMcp(target, { auth, ...client })
  }
  return mcp
}
