// WWW-Authenticate (RFC 9110 §11.6.1) as the MCP authorization flow reads it. oauth4webapi parses challenges only
// inside protectedResourceRequest, which needs a token, so the unauthenticated 401 is read here.

export interface Challenge {
  /** Lower-cased auth scheme: 'bearer', 'dpop', ... */
  scheme: string
  /** Parameters by lower-cased name, quoted strings unescaped. */
  params: Record<string, string>
}

const PARAM = /([!#$%&'*+.^_`|~\w-]+)(?:\s*=\s*("(?:[^"\\]|\\.)*"|[^\s,]*))?/g

/** Every challenge in the header, in order; a token68 credential (Basic realm-less forms) is skipped. */
export function parseChallenges(header: string | null): Challenge[] {
  const challenges: Challenge[] = []
  let current: Challenge | undefined
  for (const [, name, value] of (header ?? '').matchAll(PARAM)) {
    if (value === undefined) challenges.push((current = { scheme: name!.toLowerCase(), params: {} }))
    else if (current) {
      current.params[name!.toLowerCase()] = value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value
    }
  }
  return challenges
}

/** The parameters of the Bearer/DPoP challenges merged (DPoP first when `dpop`), what the flow acts on. */
export function challengeParams(response: Response, dpop: boolean): Record<string, string> {
  const order = dpop ? ['dpop', 'bearer'] : ['bearer', 'dpop']
  const mine = parseChallenges(response.headers.get('www-authenticate'))
    .filter((c) => order.includes(c.scheme))
    .sort((a, b) => order.indexOf(b.scheme) - order.indexOf(a.scheme))
  return Object.assign({}, ...mine.map((c) => c.params))
}
