import { AbortError } from '../errors/abort-error'
import { RedirectError } from '../errors/redirect-error'
import type { HttpTransportOptions } from './types'
import { networkError } from './response-errors'

export type { HttpTransportOptions }

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024

export const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }

// Same-origin redirects followed in a row before giving up.
const MAX_REDIRECTS = 5
// unauthorized() rounds per request: a DPoP nonce, then a refreshed token, is the longest honest sequence.
const MAX_AUTH_ROUNDS = 2

/**
 * fetch with the app's headers (then the auth provider's) under ours, never leaving the origin of `url`:
 * fetch never follows a redirect itself (see `quickRedirects`); a same-origin 307/308 (or any same-origin
 * redirect of a GET) is followed a few times with the same request, everything else is a RedirectError. A
 * 401/403 goes to `auth.unauthorized()`, which may ask for one resend. Failures before a response become
 * NetworkError or AbortError. With a `proxy` only the URL fetched changes (proxy-fetch.ts); a failure to reach it,
 * or its own refusal, is a ProxyError.
 */
export async function httpFetch(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  options: HttpTransportOptions,
  signal?: AbortSignal,
): Promise<Response> {
  const { auth } = options
  // Only apps that route through a proxy load its code; a failure there is already a ProxyError.
  const send = options.proxy
    ? (to: string, what: RequestInit) => import('./proxy-fetch').then((m) => m.proxyFetch(to, what, options))
    : (options.fetch ?? globalThis.fetch)
  let target = url
  let redirects = 0
  let authRounds = 0
  for (;;) {
    const request = { url: target, method: init.method }
    // The app's and the provider's headers: a value fetch refuses (CR/LF, beyond Latin-1) is their TypeError,
    // passed on as it is rather than dressed up as a network failure. Ours are encoded and never throw.
    // Without headers to ask for, nothing is awaited: the request goes out in the same turn.
    const made =
      auth || typeof options.headers === 'function'
        ? asked(async () => {
            const all = new Headers(typeof options.headers === 'function' ? await options.headers() : options.headers)
            if (auth) for (const [name, value] of Object.entries(await auth.headers(request))) all.set(name, value)
            return all
          })
        : options.headers && asked(() => new Headers(options.headers as HeadersInit))
    let headers: Headers | Record<string, string> = init.headers
    // Ours alone go as the plain record they are: fetch copies whatever it is given into a list of its own.
    if (made) {
      headers = made instanceof Headers ? made : await made
      for (const [name, value] of Object.entries(init.headers)) headers.set(name, value)
    }
    if (signal?.aborted) throw new AbortError(signal.reason)
    const refuse = quickRedirects && !options.fetch && !options.proxy && !redirecting.has(target)
    let response: Response
    try {
      response = await send(target, { ...options.requestInit, ...init, headers, signal, redirect: refuse ? 'error' : 'manual' })
    } catch (error) {
      if (signal?.aborted) throw new AbortError(signal.reason)
      if (refuse && (error as { cause?: { message?: unknown } } | null)?.cause?.message === 'unexpected redirect') {
        redirecting.add(target)
        continue
      }
      throw options.proxy ? error : networkError(target, error)
    }
    // A browser hides a manual redirect's target: it cannot be checked, so it is not followed.
    if (response.type === 'opaqueredirect') throw new RedirectError(target, undefined, 0, 'hidden')
    // An injected fetch may follow redirects itself: an answer it was redirected to from elsewhere is refused (and
    // its session id unseen). Only a real redirect counts: a fetch that forwards to a proxy answers with the
    // proxy's URL, which is where the request was meant to go.
    if (response.redirected && originOf(response.url) !== originOf(url)) {
      await discard(response)
      throw new RedirectError(target, response.url, response.status)
    }
    if (auth?.response) await asked(() => auth.response!(response, request))
    const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null
    if (location !== null) {
      await discard(response)
      const next = new URL(location, target).href
      if (originOf(next) !== originOf(url)) throw new RedirectError(target, next, response.status)
      // 301/302/303 turn a POST into a GET (and 303 anything): a body-less resend would be another request.
      if (response.status < 307 && init.method !== 'GET') throw new RedirectError(target, next, response.status, 'method')
      if (++redirects > MAX_REDIRECTS) throw new RedirectError(url, next, response.status, 'too-many')
      target = next
      continue
    }
    if (auth && (response.status === 401 || response.status === 403) && authRounds < MAX_AUTH_ROUNDS) {
      authRounds++
      // The provider reads the challenge (WWW-Authenticate); the body stays for the HttpError if it declines.
      if (await asked(() => auth.unauthorized(response, request))) {
        await discard(response)
        continue
      }
    }
    return response
  }
}

/**
 * Node's fetch (undici) copies every request whose redirect mode is not 'error' before sending it (the Fetch spec's
 * HTTP-network-or-cache fetch keeps the original for a redirect or an authentication retry): a tee of the body's
 * stream that costs about as much as nanomcp's own work on a call. It also says when it refused a redirect (the
 * TypeError's cause reads 'unexpected redirect'). So there a request goes out with 'error', and a URL that answered
 * with a redirect is asked again, and from then on, with 'manual' to see where it leads: the server sees that one
 * request twice, which a redirect allows (it says the request was not handled there; a 303 after handling a
 * JSON-RPC POST is no MCP server's answer). Browsers report a refused redirect as a bare network failure, so they
 * keep 'manual', as does an injected fetch or a proxy, whose failures may read otherwise.
 */
const quickRedirects = typeof (globalThis as { process?: { versions?: { undici?: unknown } } }).process?.versions?.undici === 'string'
const redirecting = new Set<string>()

const REDIRECTS = new Set([301, 302, 303, 307, 308])

// What the app's headers or the auth provider threw (an OAuthError, a TypeError for a header value fetch
// refuses): it reaches the caller as it is, never wrapped in a transport error.
const fromAuth = new WeakSet<object>()

/** Whether `error` came from the app's headers or the auth provider, and so must not be wrapped. */
export const isAuthFailure = (error: unknown): boolean => typeof error === 'object' && error !== null && fromAuth.has(error)

function asked<T>(call: () => T): T {
  const mark = (error: unknown) => {
    if (typeof error === 'object' && error !== null) fromAuth.add(error)
    return error
  }
  try {
    const value = call()
    return (value instanceof Promise ? value.catch((error: unknown) => Promise.reject(mark(error))) : value) as T
  } catch (error) {
    throw mark(error)
  }
}

const originOf = (url: string): string => new URL(url, (globalThis as { location?: { href?: string } }).location?.href).origin

const discard = (response: Response): Promise<void> => response.body?.cancel().catch(() => undefined) ?? Promise.resolve()

/** The media type of a response, without parameters, lower-cased ('' when there is none). */
export const contentType = (response: Response): string =>
  (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()

/** `promise`, or an AbortError as soon as `signal` aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new AbortError(signal.reason))
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** Waits `ms`, or rejects with AbortError as soon as `signal` aborts (and then the timer is cleared too). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return abortable(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), signal).finally(() => clearTimeout(timer))
}
