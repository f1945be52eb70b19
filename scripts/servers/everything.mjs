// mcp-server-everything (the reference server from npm) as a child process, in `streamableHttp` or `sse` mode,
// bound to loopback by the force-loopback preload on an ephemeral port it reports back.
import { fileURLToPath } from 'node:url'
import { spawnLoopback } from './loopback-child.mjs'

const BIN = fileURLToPath(new URL('../../node_modules/.bin/mcp-server-everything', import.meta.url))
const PATHS = { streamableHttp: '/mcp', sse: '/sse' }

// Listening is not answering: wait for one real HTTP exchange (a CORS preflight changes no state).
async function answers(url, deadline) {
  while (Date.now() < deadline) {
    try {
      const headers = { Origin: 'http://127.0.0.1', 'Access-Control-Request-Method': 'POST' }
      const res = await fetch(url, { method: 'OPTIONS', headers, signal: AbortSignal.timeout(2000) })
      if (res.status < 500) return true
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return false
}

/**
 * Starts server-everything in `mode` and resolves with `{ url, pid, close }` once it answers HTTP.
 * Rejects, after killing the child, if it exits first or does not answer within `timeoutMs`.
 */
export function startEverything({ mode, label = `server-everything (${mode})`, timeoutMs = 20_000 }) {
  const { child, exited, close, output } = spawnLoopback([BIN, mode], { PORT: '0' })

  return new Promise((resolve, reject) => {
    let settled = false
    const fail = async (why) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      await close()
      const tail = output().trim() ? `\n--- its output ---\n${output().trim()}` : ''
      reject(new Error(`${label} did not start: ${why}${tail}`))
    }
    const timer = setTimeout(() => fail(`no answer within ${timeoutMs / 1000} s`), timeoutMs)
    child.once('error', (error) => fail(error.message))
    exited.then(({ code, signal }) => fail(`it exited (${signal ?? `code ${code}`}) before answering`))
    child.on('message', async (message) => {
      if (settled || message?.type !== 'listening') return
      const url = `http://127.0.0.1:${message.port}${PATHS[mode]}`
      if (!(await answers(url, Date.now() + timeoutMs))) return
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ url, pid: child.pid, close })
    })
  })
}
