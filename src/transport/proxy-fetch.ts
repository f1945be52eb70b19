// httpFetch's proxy path, loaded only by transports given a `proxy`: the URL fetched is the proxy's, a failure to
// reach the proxy and the proxy's own refusals are ProxyErrors naming it. Everything else stays httpFetch's.
import { ProxyError } from '../errors/proxy-error'
import { proxyRefusal, viaProxy } from './proxy-url'
import type { HttpTransportOptions } from './types'

export async function proxyFetch(target: string, init: RequestInit, options: HttpTransportOptions): Promise<Response> {
  const fetched = viaProxy(target, options.proxy)
  let response: Response
  try {
    response = await (options.fetch ?? globalThis.fetch)(fetched, init)
  } catch (error) {
    if (init.signal?.aborted) throw error
    throw new ProxyError(fetched, target, 'unreachable', (error as Error)?.message, undefined, { cause: error })
  }
  const refusal = await proxyRefusal(response, fetched, target)
  if (refusal) throw refusal
  return response
}
