// Honest connection diagnoses. The library reports the last thing that failed; when the Streamable HTTP POST was
// refused and the HTTP+SSE fallback then failed too, that last thing is an EventSource error that reads like
// CORS. The page therefore watches every HTTP answer itself (through the transport's `fetch` option) and, when a
// connection fails, says first what the server actually answered. With no answer at all, a `no-cors` probe tells
// a server that is up but refuses this origin from one that does not answer.
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS } from '../src/errors/network-error'
import { HttpError, NetworkError, ProtocolError } from '../src/index'
import { h } from './dom'
import { renderError } from './render-content'

export interface HttpAnswer {
  at: number
  method: string
  url: string
  /** 0 when no response arrived (refused connection, DNS, CORS). */
  status: number
  contentType: string
  /** The start of a failed response's body. */
  body?: string
  error?: string
  elapsed: number
}

const BODY_PREVIEW = 400

/** A fetch that reports every answer (and every failure to get one) before handing it on untouched. */
export function watchedFetch(onAnswer: (answer: HttpAnswer) => void): typeof fetch {
  return async (input, init) => {
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
    const url = input instanceof Request ? input.url : String(input)
    const at = Date.now()
    const started = performance.now()
    let response: Response
    try {
      response = await fetch(input, init)
    } catch (error) {
      if (!init?.signal?.aborted) {
        onAnswer({ at, method, url, status: 0, contentType: '', error: error instanceof Error ? error.message : String(error), elapsed: performance.now() - started })
      }
      throw error
    }
    const answer: HttpAnswer = { at, method, url, status: response.status, contentType: response.headers.get('content-type') ?? '', elapsed: performance.now() - started }
    if (!response.ok) {
      // Read before the library gets the response: once it is done it aborts the request's signal, which would
      // end a clone's body too. Error bodies are small; a slow one is given two seconds, then skipped.
      const text = await Promise.race([response.clone().text(), new Promise<string>((resolve) => setTimeout(resolve, 2000, ''))]).catch(() => '')
      answer.body = text.slice(0, BODY_PREVIEW)
    }
    onAnswer(answer)
    return response
  }
}

const isHtml = (contentType: string, body = '') => /text\/html/i.test(contentType) || /^\s*<(!doctype|html)/i.test(body)

function corsBlock() {
  return h(
    'pre',
    { class: 'cors' },
    `Access-Control-Allow-Origin: ${location.origin}\n` +
      'Access-Control-Allow-Methods: GET, POST, DELETE\n' +
      `Access-Control-Allow-Headers: ${CORS_ALLOW_HEADERS}\n` +
      `Access-Control-Expose-Headers: ${CORS_EXPOSE_HEADERS}`,
  )
}

const box = (title: string, ...body: (Node | string | false | undefined)[]) =>
  h('div', { class: 'error', role: 'alert', 'data-testid': 'error' }, h('strong', { 'data-testid': 'diagnosis' }, title), ...body)

const fullError = (error: unknown) =>
  h('details', {}, h('summary', {}, 'What the client reported'), h('p', {}, error instanceof Error ? error.message : String(error)))

/** What a non-MCP answer means, in one title. */
function statusTitle(answer: { status: number; contentType: string; body?: string }, url: string) {
  const what = isHtml(answer.contentType, answer.body) ? ' (an HTML page)' : answer.contentType ? ` (${answer.contentType.split(';')[0]})` : ''
  if (answer.status === 401 || answer.status === 403) return `The server wants authorization: HTTP ${answer.status} from ${url}`
  if (answer.status >= 500) return `The server failed: HTTP ${answer.status} from ${url}${what}`
  if (answer.status >= 400) return `Not an MCP endpoint: HTTP ${answer.status} from ${url}${what}`
  return `Not an MCP endpoint: ${url} answered HTTP ${answer.status}${what}`
}

function statusHint(status: number, method = 'POST') {
  // A 405 to the first POST is what an HTTP+SSE (2024-11-05) endpoint answers: the path may well be right.
  if (status === 405 && method === 'POST') {
    return h(
      'p',
      { class: 'hint', 'data-testid': 'hint-sse' },
      'The server refused POST (405 Method Not Allowed). An HTTP+SSE (2024-11-05) server answers that at its /sse address: pick Transport “HTTP+SSE” or “Auto” and connect again.',
    )
  }
  if (status === 401 || status === 403) {
    return h('p', { class: 'hint' }, 'Paste a token under “Headers and options” (it is sent as Authorization: Bearer …), or add the header your server expects.')
  }
  if (status >= 500) return h('p', { class: 'hint' }, 'The address is right but the server broke while answering; its own log says why.')
  return h('p', { class: 'hint' }, 'Check the path: MCP servers usually answer at /mcp (Streamable HTTP) or /sse (HTTP+SSE).')
}

/**
 * A connection failure as the user needs to read it. `answers` are the HTTP answers seen for this attempt, oldest
 * first; `probe` is injectable for tests.
 */
export async function diagnose(
  error: unknown,
  url: string,
  answers: readonly HttpAnswer[],
  probe: (url: string) => Promise<boolean> = reachable,
): Promise<HTMLElement> {
  if (error instanceof HttpError) {
    // The connection's first request is always a POST (initialize or server/discover).
    return box(statusTitle({ status: error.status, contentType: error.headers.get('content-type') ?? '', body: error.body }, url), statusHint(error.status, 'POST'), fullError(error))
  }
  // The first refusal from the server's own address is the real answer; later failures are the fallback's.
  const refused = answers.find((a) => a.status >= 300 && a.url === url) ?? answers.find((a) => a.status >= 300)
  if (refused) {
    return box(
      statusTitle(refused, refused.url),
      statusHint(refused.status, refused.method),
      h('p', { class: 'hint' }, 'The HTTP+SSE (2024-11-05) fallback was tried after that refusal and failed too.'),
      fullError(error),
    )
  }
  const page = answers.find((a) => a.status >= 200 && a.status < 300 && isHtml(a.contentType))
  if (error instanceof ProtocolError && page) {
    return box(statusTitle(page, page.url), statusHint(404), fullError(error))
  }
  if (error instanceof NetworkError) {
    const answersAtAll = await probe(url)
    if (answersAtAll) {
      return box(
        'The server answers, but not to this page: it does not allow CORS from this origin',
        h('p', {}, 'Something answers at ', h('code', {}, url), ', but the browser withholds its answers from this page. A cross-origin MCP server must answer preflights (OPTIONS) and responses with:'),
        corsBlock(),
        fullError(error),
      )
    }
    const mixed = location.protocol === 'https:' && url.startsWith('http:') && !/^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(url)
    return box(
      `Nothing answers at ${url}`,
      h(
        'p',
        {},
        mixed
          ? 'This page is served over https, and browsers block requests from it to plain http addresses (mixed content). Serve the MCP server over https.'
          : 'The connection was refused or the host name does not resolve. Check the address, and that the server is running and reachable from this computer.',
      ),
      fullError(error),
    )
  }
  return renderError(error)
}

/** True when anything at all answers `url`: a `no-cors` request resolves (opaquely) even when CORS is refused. */
export async function reachable(url: string): Promise<boolean> {
  try {
    await fetch(url, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: AbortSignal.timeout(5000) })
    return true
  } catch {
    return false
  }
}
