// The official MCP Apps example servers from npm, each a child process on loopback. They bind every interface
// and take no host option, so the force-loopback preload pins them to 127.0.0.1 on an ephemeral port it reports.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const APP_SERVERS = ['basic-vanillajs', 'basic-react', 'system-monitor', 'budget-allocator']
const PRELOAD = new URL('./force-loopback.mjs', import.meta.url).href
const entry = (name) => fileURLToPath(new URL(`../../node_modules/@modelcontextprotocol/server-${name}/dist/index.js`, import.meta.url))

/** Starts one example server; resolves `{ url, close }` once it listens, rejects (child killed) if it does not. */
export function startAppServer(name, { timeoutMs = 20_000 } = {}) {
  const child = spawn(process.execPath, ['--import', PRELOAD, entry(name)], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let output = ''
  const keep = (chunk) => (output = (output + chunk).slice(-2000))
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
    await exited
    clearTimeout(timer)
  }
  return new Promise((resolve, reject) => {
    let listening = false
    const fail = (why) => {
      if (listening) return
      clearTimeout(timer)
      void close().then(() => reject(new Error(`server-${name} did not start: ${why}\n${output.trim()}`)))
    }
    const timer = setTimeout(() => fail(`no port within ${timeoutMs / 1000} s`), timeoutMs)
    child.once('error', (error) => fail(error.message))
    child.once('exit', (code) => fail(`it exited (code ${code})`))
    child.on('message', (message) => {
      if (message?.type !== 'listening') return
      clearTimeout(timer)
      listening = true
      resolve({ url: `http://127.0.0.1:${message.port}/mcp`, close })
    })
  })
}

/** Starts `names` (default: all four); resolves `{ servers: { [name]: { url } }, stop }`. */
export async function startAppServers(names = APP_SERVERS, options) {
  const outcomes = await Promise.allSettled(names.map((name) => startAppServer(name, options)))
  const running = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))
  const stop = () => Promise.all(running.map((s) => s.close())).then(() => {})
  const failed = outcomes.find((o) => o.status === 'rejected')
  if (failed) {
    await stop()
    throw failed.reason
  }
  return { servers: Object.fromEntries(names.map((name, i) => [name, { url: outcomes[i].value.url }])), stop }
}
