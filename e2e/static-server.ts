// A plain static file server (node:http, nothing else), to prove the built demo works where such pages live:
// files on a static host, under a sub-path such as /nanomcp/, with no dev server and no API behind them.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { extname, join, normalize, resolve, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
}

export interface StaticSite {
  /** The site's address, ending in the prefix (e.g. http://127.0.0.1:1234/nanomcp/). */
  url: string
  /** Every path requested, in order, with its status and who asked (the User-Agent header, '' when none). */
  log: { path: string; status: number; agent: string }[]
  close(): Promise<void>
}

/**
 * Serves `root` under `prefix` ('/' or '/name/'), as GitHub Pages does: a directory answers with its index.html.
 * With `tls` (a PEM key and certificate for 127.0.0.1) it serves https, as Pages does. Files are read per
 * request, so `root` may be filled after the server listens (a build that needs the site's address).
 */
export async function serveStatic(root: string, prefix = '/', tls?: { key: string; cert: string }): Promise<StaticSite> {
  const base = resolve(root)
  const log: StaticSite['log'] = []
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
      log.push({ path: req.url ?? '', status, agent: req.headers['user-agent'] ?? '' })
      res.writeHead(status, headers).end(req.method === 'HEAD' ? undefined : body)
    }
    void (async () => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed')
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
      if (path === prefix.replace(/\/$/, '') && prefix !== '/') return send(301, '', { Location: prefix })
      if (!path.startsWith(prefix)) return send(404, 'not found')
      let file = normalize(join(base, path.slice(prefix.length)))
      if (file !== base && !file.startsWith(base + sep)) return send(404, 'not found')
      try {
        if ((await stat(file)).isDirectory()) file = join(file, 'index.html')
        send(200, await readFile(file), { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' })
      } catch {
        send(404, 'not found')
      }
    })()
  }
  const server: Server = tls ? createTlsServer(tls, handle) : createServer(handle)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}${prefix}`,
    log,
    close: () =>
      new Promise((done) => {
        server.close(() => done())
        server.closeAllConnections()
      }),
  }
}

/**
 * A throwaway self-signed certificate for https://127.0.0.1 (valid one day), made by the openssl command line:
 * the browser is told to accept it (ignoreHTTPSErrors), Node clients pass `cert` as their only trusted CA.
 */
export function selfSignedCert(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'nanomcp-cert-'))
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' })
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
