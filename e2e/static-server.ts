// A plain static file server (node:http, nothing else), to prove the built demo works where such pages live:
// files on a static host, under a sub-path such as /nanomcp/, with no dev server and no API behind them.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFile, stat } from 'node:fs/promises'
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
  /** Every path requested, in order, with its status. */
  log: { path: string; status: number }[]
  close(): Promise<void>
}

/** Serves `root` under `prefix` ('/' or '/name/'), as GitHub Pages does: a directory answers with its index.html. */
export async function serveStatic(root: string, prefix = '/'): Promise<StaticSite> {
  const base = resolve(root)
  const log: StaticSite['log'] = []
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
      log.push({ path: req.url ?? '', status })
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
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    log,
    close: () =>
      new Promise((done) => {
        server.close(() => done())
        server.closeAllConnections()
      }),
  }
}
