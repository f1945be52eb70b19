// The Bearer challenge of a 401/403 (RFC 6750 §3, RFC 9728 §5.1): only the parameters a grant needs.

export interface BearerChallenge {
  resource_metadata?: string
  scope?: string
  error?: string
}

/** Reads the `Bearer` challenge's auth-params out of a WWW-Authenticate header (quoted or token values). */
export function parseBearerChallenge(header: string | null): BearerChallenge {
  if (!header) return {}
  const start = header.search(/(^|,|\s)bearer(\s|$)/i)
  if (start === -1) return {}
  const params: Record<string, string> = {}
  // Parameters run until the next scheme (a token followed by a space and no '=').
  const pattern = /\s*,?\s*([\w-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^\s,]+)|\s*,?\s*[\w-]+\s+(?=[\w-]+\s*=)/gy
  pattern.lastIndex = header.slice(start).search(/bearer/i) + start + 'bearer'.length
  for (let match = pattern.exec(header); match; match = pattern.exec(header)) {
    if (!match[1]) break
    const key = match[1].toLowerCase()
    params[key] ??= match[3] !== undefined ? match[3].replace(/\\(.)/g, '$1') : match[2]!
  }
  return { resource_metadata: params.resource_metadata, scope: params.scope, error: params.error }
}
