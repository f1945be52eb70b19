// A protected MCP endpoint in front of an embedded MCP server: RFC 9728 Protected Resource Metadata, RFC 6750
// challenges, JWT access tokens (RFC 9068) from the embedded AS checked with jose (issuer, audience = this MCP
// URL, expiry, typ), DPoP proofs (RFC 9449: cnf.jkt, htm, htu, ath, jti, optional server nonces) and one
// tool that needs an extra scope (403 insufficient_scope, for step-up). Accepted requests are passed through
// unchanged, streams included, to the MCP server behind it.
import crypto from 'node:crypto'
import http from 'node:http'
import { Readable } from 'node:stream'
import { calculateJwkThumbprint, createRemoteJWKSet, EmbeddedJWK, jwtVerify } from 'jose'
import { closeServer, listenOnLoopback } from '../listen.mjs'
import { readBody } from '../read-body.mjs'

export const BASE_SCOPE = 'mcp:tools'
export const EXTRA_SCOPE = 'mcp:admin'
/** Tools whose call needs EXTRA_SCOPE. */
export const ADMIN_TOOLS = ['add']

const CORS = {
  'access-control-allow-origin': '*',
  // Without these a page cannot read the challenge, the DPoP nonce or the session id.
  'access-control-expose-headers': 'WWW-Authenticate, DPoP-Nonce, Mcp-Session-Id, MCP-Protocol-Version',
}

/** Listens first (the resource URL needs the port); `configure({ issuer })` once the AS is up. */
export async function startProtected({ upstream, label = 'protected MCP server', clockTolerance = 0, dpopNonce = false, port = 0 }) {
  const server = http.createServer()
  const origin = `http://127.0.0.1:${await listenOnLoopback(server, port, label)}`
  const resource = `${origin}/mcp`
  const prmUrl = `${origin}/.well-known/oauth-protected-resource/mcp`
  const nonce = crypto.randomBytes(16).toString('base64url')
  const seen = new Set()
  const stats = { accepted: 0, refused: 0 }
  let issuer
  let jwks
  // POST /control/expire: every token seen so far is refused as expired from then on (expiry without waiting).
  const tokensSeen = new Set()
  const expired = new Set()

  const send = (res, status, body, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...CORS, ...headers })
    res.end(JSON.stringify(body))
  }

  function challenge(res, status, { error, description, scope = BASE_SCOPE, dpop = false, headers = {} } = {}) {
    stats.refused++
    const params = [`resource_metadata="${prmUrl}"`, `scope="${scope}"`]
    if (error) params.push(`error="${error}"`)
    if (description) params.push(`error_description="${description.replace(/["\\]/g, "'")}"`)
    const scheme = dpop ? 'DPoP algs="ES256"' : 'Bearer'
    send(res, status, { error: error ?? 'unauthorized' }, { 'www-authenticate': `${scheme}${dpop ? ',' : ''} ${params.join(', ')}`, ...headers })
  }

  /** The token's claims, or null after answering the challenge. */
  async function authenticate(req, res, url) {
    const [scheme, token] = (req.headers.authorization ?? '').split(' ')
    const isDpop = /^dpop$/i.test(scheme ?? '')
    if (!token || !(isDpop || /^bearer$/i.test(scheme ?? ''))) return challenge(res, 401), null
    let payload
    try {
      ;({ payload } = await jwtVerify(token, jwks, { issuer, audience: resource, typ: 'at+jwt', algorithms: ['ES256'], clockTolerance }))
    } catch (error) {
      return challenge(res, 401, { error: 'invalid_token', description: error.code ?? error.message, dpop: isDpop }), null
    }
    if (expired.has(payload.jti)) return challenge(res, 401, { error: 'invalid_token', description: 'token expired', dpop: isDpop }), null
    tokensSeen.add(payload.jti)
    const jkt = payload.cnf?.jkt
    if (jkt || isDpop) {
      try {
        if (!jkt) throw new Error('DPoP scheme with an unbound token')
        if (!isDpop) throw new Error('DPoP-bound token sent as Bearer')
        const proof = req.headers.dpop
        if (!proof || proof.includes(',')) throw new Error('missing or multiple DPoP proofs')
        const { payload: p, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ['ES256'], maxTokenAge: '60s', clockTolerance: 5 })
        if (p.htm !== req.method) throw new Error('htm mismatch')
        if (p.htu !== `${origin}${url.pathname}`) throw new Error('htu mismatch')
        if (p.ath !== crypto.createHash('sha256').update(token).digest('base64url')) throw new Error('ath mismatch')
        if ((await calculateJwkThumbprint(protectedHeader.jwk)) !== jkt) throw new Error('cnf.jkt mismatch')
        if (typeof p.jti !== 'string' || seen.has(p.jti)) throw new Error('DPoP proof replayed')
        if (dpopNonce && p.nonce !== nonce) {
          return challenge(res, 401, { error: 'use_dpop_nonce', description: 'nonce required', dpop: true, headers: { 'dpop-nonce': nonce } }), null
        }
        seen.add(p.jti)
      } catch (error) {
        return challenge(res, 401, { error: isDpop ? 'invalid_dpop_proof' : 'invalid_token', description: error.message, dpop: true }), null
      }
    }
    return payload
  }

  server.on('request', async (req, res) => {
    try {
      const url = new URL(req.url, origin)
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          ...CORS,
          'access-control-allow-methods': 'GET, POST, DELETE',
          'access-control-allow-headers': req.headers['access-control-request-headers'] || 'authorization, dpop, content-type',
          'access-control-max-age': '600',
        })
        return res.end()
      }
      if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
        return send(res, 200, {
          resource,
          authorization_servers: [issuer],
          scopes_supported: [BASE_SCOPE, EXTRA_SCOPE],
          bearer_methods_supported: ['header'],
          dpop_signing_alg_values_supported: ['ES256'],
        })
      }
      if (url.pathname === '/control/stats') return send(res, 200, stats)
      if (url.pathname === '/control/expire' && req.method === 'POST') {
        for (const jti of tokensSeen) expired.add(jti)
        return send(res, 200, { expired: expired.size })
      }
      if (url.pathname !== '/mcp') return send(res, 404, { error: 'not_found' })
      const body = req.method === 'POST' ? await readBody(req) : undefined
      const claims = await authenticate(req, res, url)
      if (!claims) return
      const granted = new Set(String(claims.scope ?? '').split(' '))
      const json = body?.json
      const needed = json?.method === 'tools/call' && ADMIN_TOOLS.includes(json.params?.name) ? EXTRA_SCOPE : BASE_SCOPE
      if (!granted.has(needed)) {
        const scope = [...new Set([...granted, needed])].filter(Boolean).join(' ')
        return challenge(res, 403, { error: 'insufficient_scope', description: `requires ${needed}`, scope, dpop: !!claims.cnf })
      }
      stats.accepted++
      await pass(req, res, body?.raw)
    } catch (error) {
      if (!res.headersSent) send(res, 500, { error: String(error?.message ?? error) })
      else res.destroy()
    }
  })

  /** Hands the request to the MCP server behind (without the credentials) and streams its answer back. */
  async function pass(req, res, raw) {
    const headers = { ...req.headers }
    for (const name of ['authorization', 'dpop', 'host', 'content-length', 'connection']) delete headers[name]
    const controller = new AbortController()
    res.on('close', () => controller.abort())
    const answer = await fetch(upstream, { method: req.method, headers, body: raw ?? undefined, signal: controller.signal }).catch((error) => {
      throw new Error(`the MCP server behind is unreachable: ${error.message}`)
    })
    const out = { ...CORS }
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) out[name] = value
    })
    res.writeHead(answer.status, out)
    if (!answer.body) return res.end()
    Readable.fromWeb(answer.body).on('error', () => res.destroy()).pipe(res)
  }

  return {
    url: resource,
    origin,
    resource,
    scopes: `${BASE_SCOPE} ${EXTRA_SCOPE}`,
    stats,
    configure(options) {
      issuer = options.issuer
      jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`))
    },
    close: () => closeServer(server),
  }
}
