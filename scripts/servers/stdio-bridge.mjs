// The local demo's bridge to stdio MCP servers: it starts a command the page sends and serves it as a Streamable
// HTTP endpoint on loopback, so the page talks to it like to any other server.
//
// Who may use it: it listens on 127.0.0.1 only; every route is under /<token>/, a random token made at start and
// printed in the terminal's page URL (so only a page opened from that terminal knows it); every request must come
// from an allowed page Origin (the demo's dev server), with no Origin at all refused too. A page on any other origin,
// or one without the token, cannot start a program. (An unauthenticated local proxy that starts commands is exactly
// the remote-code-execution hole MCP Inspector once had.)
//
// The process side is the official SDK's StdioClientTransport: it spawns without a shell, passes only a minimal
// environment (PATH, HOME, ...: not the demo's own), frames newline-delimited JSON-RPC as the stdio transport
// defines it, and ends the child (stdin closed, then SIGTERM, then SIGKILL). The HTTP side is written here, small:
// the SDK's StreamableHTTPServerTransport accepts one initialize per session, and a demo page reconnects (a reload, a
// new connection) to the same running process. Requests are answered as JSON; whatever the process sends that
// answers no request (notifications, its own requests) goes to the GET SSE stream while one is open.
import { randomBytes, randomUUID } from 'node:crypto'
import http from 'node:http'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const EARLY_EXIT_MS = 700
const REQUEST_TIMEOUT_MS = 60_000
const MAX_PROCESSES = 4
const MAX_BODY = 4 * 1024 * 1024
const LOOPBACK = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/

/** "npx -y pkg --flag 'a b'" → ['npx', '-y', 'pkg', '--flag', 'a b']: words, single or double quotes, no shell. */
export function splitCommand(line) {
  const words = []
  let word = ''
  let quote = ''
  let inWord = false
  for (const char of String(line)) {
    if (quote) {
      if (char === quote) quote = ''
      else word += char
    } else if (char === '"' || char === "'") {
      quote = char
      inWord = true
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else {
      word += char
      inWord = true
    }
  }
  if (quote) throw new Error(`unclosed ${quote} in the command`)
  if (inWord) words.push(word)
  return words
}

/** One started command: its JSON-RPC traffic, the GET streams waiting for its own messages, and how it ended. */
class Running {
  constructor(id, command, transport) {
    this.id = id
    this.command = command
    this.transport = transport
    this.pending = new Map()
    // Ids on the wire to the process are the bridge's own: two connections (a reloaded page and its old requests,
    // two tabs) both number their requests from the same start, and must not get each other's answers.
    this.nextId = 0
    this.streams = new Set()
    this.stderr = ''
    this.failure = undefined
    transport.stderr?.on('data', (chunk) => (this.stderr = (this.stderr + chunk).slice(-2000)))
    transport.onmessage = (message) => this.#receive(message)
    transport.onerror = (error) => {
      // A line that is not JSON-RPC: the process speaks something else on stdout (logs, a prompt), and nothing it
      // says can be trusted to be framed right any more.
      this.fail(`"${command}" wrote something that is not JSON-RPC to stdout (${error.message}); it was stopped`)
      transport.close().catch(() => undefined)
    }
    transport.onclose = () => this.fail(`"${command}" exited${this.stderr.trim() ? `; its last output: ${this.stderr.trim().slice(-500)}` : ''}`)
  }

  fail(message) {
    if (this.failure) return
    this.failure = message
    for (const { reject } of this.pending.values()) reject(new Error(message))
    this.pending.clear()
    for (const res of this.streams) res.end()
  }

  #receive(message) {
    const key = message && 'id' in message && !('method' in message) ? message.id : undefined
    const waiting = key !== undefined ? this.pending.get(key) : undefined
    if (waiting) {
      this.pending.delete(key)
      return waiting.resolve({ ...message, id: waiting.id })
    }
    for (const res of this.streams) res.write(`data: ${JSON.stringify(message)}\n\n`)
  }

  /** Sends a message; for a request, resolves with the process's answer. */
  send(message) {
    if (this.failure) return Promise.reject(new Error(this.failure))
    const isRequest = 'method' in message && 'id' in message
    const key = isRequest ? `bridge-${++this.nextId}` : undefined
    const answer = isRequest
      ? new Promise((resolve, reject) => {
          const timer = setTimeout(() => {
            this.pending.delete(key)
            reject(new Error(`"${this.command}" did not answer ${message.method} within ${REQUEST_TIMEOUT_MS / 1000} s`))
          }, REQUEST_TIMEOUT_MS)
          this.pending.set(key, {
            id: message.id,
            resolve: (value) => (clearTimeout(timer), resolve(value)),
            reject: (error) => (clearTimeout(timer), reject(error)),
          })
        })
      : Promise.resolve(undefined)
    return this.transport.send(isRequest ? { ...message, id: key } : this.#cancelled(message)).then(() => answer)
  }

  /** A cancellation names the page's id: it goes out with the bridge's id for that request (the latest with it). */
  #cancelled(message) {
    if (message?.method !== 'notifications/cancelled' || message.params?.requestId === undefined) return message
    const wire = [...this.pending].findLast(([, entry]) => entry.id === message.params.requestId)?.[0]
    return wire === undefined ? message : { ...message, params: { ...message.params, requestId: wire } }
  }

  stop() {
    this.fail(`"${this.command}" was stopped`)
    return this.transport.close().catch(() => undefined)
  }
}

/**
 * Starts the bridge on 127.0.0.1 (port 0: any free one). Resolves `{ url, token, allow(origin), allowsUpstream(origin), close() }`;
 * `url` has the token in it (`http://127.0.0.1:<port>/<token>/`). Pages are refused until `allow()`ed.
 */
export async function startStdioBridge({ origins = [], cwd = process.cwd() } = {}) {
  const token = randomBytes(24).toString('base64url')
  const allowed = new Set(origins)
  const running = new Map()
  const upstreams = new Set()
  // Set when close() begins: a command arriving while the running ones are being stopped would outlive the bridge.
  let closing = false

  const cors = (origin) => ({ 'access-control-allow-origin': origin, 'access-control-expose-headers': 'Mcp-Session-Id', vary: 'Origin' })
  const send = (res, status, body, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers })
    res.end(JSON.stringify(body))
  }
  const refuse = (res, status, message, headers) => send(res, status, { jsonrpc: '2.0', id: null, error: { code: -32000, message: `stdio bridge: ${message}` } }, headers)

  async function start(command, res, headers) {
    let words
    try {
      words = splitCommand(command)
    } catch (error) {
      return refuse(res, 400, error.message, headers)
    }
    if (!words.length) return refuse(res, 400, 'no command given', headers)
    if (closing) return refuse(res, 503, 'the bridge is shutting down', headers)
    // A command that failed after its start (non-JSON later on, an exit) is already stopped: it holds no place.
    for (const [key, each] of running) if (each.failure) running.delete(key)
    if (running.size >= MAX_PROCESSES) return refuse(res, 429, `${MAX_PROCESSES} commands already run; stop one first`, headers)
    const transport = new StdioClientTransport({ command: words[0], args: words.slice(1), stderr: 'pipe', cwd })
    const id = randomUUID()
    const process_ = new Running(id, command, transport)
    // Counted and stoppable from the moment it is spawned, so neither a second start nor close() can miss it.
    running.set(id, process_)
    try {
      await transport.start()
    } catch (error) {
      running.delete(id)
      return refuse(res, 502, `could not start "${command}": ${error.code === 'ENOENT' ? `${words[0]} was not found` : error.message}`, headers)
    }
    // A command that exits at once (a typo in its arguments, a missing file) is reported now, not on the first call.
    await new Promise((resolve) => setTimeout(resolve, EARLY_EXIT_MS))
    if (process_.failure) {
      running.delete(id)
      return refuse(res, 502, process_.failure.replace(/exited/, 'exited at once'), headers)
    }
    send(res, 201, { id, command, pid: transport.pid, url: `${base}stdio/${id}/mcp` }, headers)
  }

  async function mcp(proc, req, res, body, headers) {
    if (req.method === 'GET') {
      if (proc.failure) return refuse(res, 502, proc.failure, headers)
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', ...headers })
      res.flushHeaders()
      proc.streams.add(res)
      res.on('close', () => proc.streams.delete(res))
      return
    }
    if (req.method === 'DELETE') return void res.writeHead(200, headers).end()
    let message
    try {
      message = JSON.parse(body)
    } catch {
      return refuse(res, 400, 'the body is not JSON', headers)
    }
    const session = message?.method === 'initialize' ? { 'mcp-session-id': proc.id } : {}
    try {
      const answer = await proc.send(message)
      if (answer === undefined) return void res.writeHead(202, { ...headers, ...session }).end()
      send(res, 200, answer, { ...headers, ...session })
    } catch (error) {
      refuse(res, 502, error.message, headers)
    }
  }

  const server = http.createServer((req, res) => {
    const origin = req.headers.origin
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    // A page that is not the demo's gets no CORS headers, so it cannot even read the refusal.
    if (!origin || !allowed.has(origin)) return refuse(res, 403, `requests from ${origin ?? 'no page'} are not allowed`)
    const headers = cors(origin)
    // Preflights of the demo's page pass, so that a wrong token gets a refusal the page can read.
    if (req.method === 'OPTIONS') {
      return void res
        .writeHead(204, { ...headers, 'access-control-allow-methods': 'GET, POST, DELETE', 'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '', 'access-control-max-age': '600' })
        .end()
    }
    if (!url.pathname.startsWith(`/${token}/`)) return refuse(res, 403, 'the token is missing or wrong: open the page from the link printed in the terminal', headers)
    const route = url.pathname.slice(token.length + 2)
    const chunks = []
    let size = 0
    req.on('data', (chunk) => {
      size += chunk.length
      if (size <= MAX_BODY) chunks.push(chunk)
    })
    req.on('end', () => {
      if (size > MAX_BODY) return refuse(res, 413, 'the body is too large', headers)
      const body = Buffer.concat(chunks).toString('utf8')
      if (route === 'start' && req.method === 'POST') {
        let command
        try {
          command = JSON.parse(body).command
        } catch {
          return refuse(res, 400, 'expected {"command": "..."}', headers)
        }
        return void start(typeof command === 'string' ? command : '', res, headers)
      }
      // The demo's proxy forwards to loopback and to the origins the token's page asked for here, nothing else.
      if (route === 'allow-upstream' && req.method === 'POST') {
        let target
        try {
          target = new URL(JSON.parse(body).url)
        } catch {
          return refuse(res, 400, 'expected {"url": "http(s)://..."}', headers)
        }
        if (target.protocol !== 'http:' && target.protocol !== 'https:') return refuse(res, 400, `${target.protocol} URLs cannot be proxied`, headers)
        upstreams.add(target.origin)
        return send(res, 200, { allowed: target.origin }, headers)
      }
      if (route === 'list' && req.method === 'GET') {
        return send(res, 200, [...running.values()].map((p) => ({ id: p.id, command: p.command, failure: p.failure })), headers)
      }
      const match = /^stdio\/([\w-]+)\/(mcp|stop)$/.exec(route)
      const proc = match && running.get(match[1])
      if (!proc) return refuse(res, 404, 'no such command running', headers)
      if (match[2] === 'stop') {
        running.delete(proc.id)
        return void proc.stop().then(() => send(res, 200, { stopped: proc.id }, headers))
      }
      void mcp(proc, req, res, body, headers)
    })
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const base = `http://127.0.0.1:${server.address().port}/${token}/`
  return {
    url: base,
    token,
    allow: (origin) => void allowed.add(origin),
    /** Whether the demo's proxy may forward to `origin`: loopback, or an origin the token's page allowed. */
    allowsUpstream: (origin) => LOOPBACK.test(origin) || upstreams.has(origin),
    running: () => [...running.values()].map((p) => ({ id: p.id, command: p.command, pid: p.transport.pid })),
    async close() {
      closing = true
      await Promise.all([...running.values()].map((p) => p.stop()))
      running.clear()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
