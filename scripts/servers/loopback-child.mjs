// A server from npm as a child process, pinned to 127.0.0.1 by the force-loopback preload, which reports every port
// it listens on as an IPC message `{ type: 'listening', port }`. The starters of server-everything, the MCP Apps
// examples and the SDK's OAuth example share this; each waits for what its own server needs.
import { spawn } from 'node:child_process'

const PRELOAD = new URL('./force-loopback.mjs', import.meta.url).href

/**
 * Runs `node --import force-loopback <args>` with `env` added. `output()` is the tail of what it printed (the
 * server may log every request), for the message of a start that failed; `close()` ends it, SIGKILL after 3 s.
 */
export function spawnLoopback(args, env = {}) {
  const child = spawn(process.execPath, ['--import', PRELOAD, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let output = ''
  const keep = (chunk) => (output = (output + chunk).slice(-2000))
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  async function close() {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
    await exited
    clearTimeout(timer)
  }
  return { child, exited, close, output: () => output }
}
