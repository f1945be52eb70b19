import { McpError } from './mcp-error'

/** Why a redirect was not followed. */
export type RedirectRefusal =
  /** The target is on another origin: following would send the body, session id and credentials there. */
  | 'cross-origin'
  /** A browser hid the redirect (`redirect: 'manual'` gives an opaque response without `Location`), so its target cannot be checked. */
  | 'hidden'
  /** More same-origin redirects in a row than the transport follows. */
  | 'too-many'
  /** A 301/302/303 to a POST or DELETE: following would turn it into a GET. */
  | 'method'

/**
 * Thrown when the server answers with a redirect the transport will not follow. Transports never let fetch
 * follow a redirect (`redirect: 'manual'`, or in Node 'error' until a URL first redirects) so no byte of a request
 * (body, `Mcp-Session-Id`, `Authorization`, app headers, `Mcp-Param-*`) reaches another origin; a same-origin
 * 307/308 (and any same-origin redirect of a GET) is followed a few times, everything else ends here. Carries the
 * URL that was requested, the redirect target (`location`, undefined when a browser hid it), the HTTP status (0 for
 * a hidden one) and `refusal`.
 */
export class RedirectError extends McpError {
  override readonly name = 'RedirectError'
  readonly url: string
  readonly location: string | undefined
  readonly status: number
  readonly refusal: RedirectRefusal

  constructor(url: string, location: string | undefined, status: number, refusal: RedirectRefusal = 'cross-origin') {
    super(
      refusal === 'hidden'
        ? `Refused a redirect from ${url}: the browser hides its target, so it cannot be checked to stay on the same origin. Configure the final URL instead`
        : refusal === 'too-many'
          ? `Too many redirects from ${url} (last to ${location})`
          : refusal === 'method'
            ? `Refused a ${status} redirect from ${url} to ${location}: following it would resend the request as a GET`
            : `Refused a ${status} redirect from ${url} to ${location}: it is on another origin, and no part of a request leaves the configured one`,
    )
    this.url = url
    this.location = location
    this.status = status
    this.refusal = refusal
  }
}
