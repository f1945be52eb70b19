// The official SDK's own OAuth example (`simpleStreamableHttp.js --oauth` from @modelcontextprotocol/sdk): an MCP
// server at http://localhost:<port>/mcp that sends no CORS headers on /mcp, and its demo authorization server at
// http://localhost:<port+> (which approves every sign-in at once). It takes fixed ports from MCP_PORT and
// MCP_AUTH_PORT, so two free ones are picked first; the force-loopback preload keeps both on 127.0.0.1.
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { spawnLoopback } from './loopback-child.mjs'

const EXAMPLE = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js', import.meta.url))

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })

/**
 * Resolves `{ url, issuer, origins, close }` once both servers listen; rejects (child killed) if it fails to start.
 * `oauth: false` starts the same server without OAuth (still without CORS on /mcp).
 */
export async function startSdkOAuthExample({ timeoutMs = 20_000, oauth = true } = {}) {
  const [mcpPort, authPort] = [await freePort(), await freePort()]
  const { child, exited, close, output } = spawnLoopback([EXAMPLE, ...(oauth ? ['--oauth'] : [])], {
    MCP_PORT: String(mcpPort),
    MCP_AUTH_PORT: String(authPort),
  })
  const listening = new Set()
  // Without --oauth only the MCP server listens.
  if (!oauth) listening.add(authPort)
  await new Promise((resolve, reject) => {
    const fail = async (why) => {
      clearTimeout(timer)
      await close()
      reject(new Error(`the SDK's OAuth example did not start: ${why}\n${output().trim()}`))
    }
    const timer = setTimeout(() => fail(`not listening within ${timeoutMs / 1000} s`), timeoutMs)
    exited.then(({ code, signal }) => fail(`it exited (${signal ?? `code ${code}`})`))
    child.on('message', (message) => {
      if (message?.type !== 'listening') return
      listening.add(message.port)
      if (listening.has(mcpPort) && listening.has(authPort)) {
        clearTimeout(timer)
        resolve()
      }
    })
  })
  const issuer = `http://localhost:${authPort}/`
  return {
    url: `http://localhost:${mcpPort}/mcp`,
    issuer,
    origins: [`http://localhost:${mcpPort}`, `http://localhost:${authPort}`],
    pid: child.pid,
    close,
  }
}
