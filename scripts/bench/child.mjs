// Child processes of the benchmark: long-lived servers that print one JSON line when ready, and parts that
// print their rows as the last JSON line. Every child is stopped by its own PID, and none can hang the run.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

const node = process.execPath

/** Starts `node <script>` and resolves with `{ value, stop }` once it prints its first line (JSON). */
export function startChild(script, { timeoutMs = 30_000 } = {}) {
  const child = spawn(node, [script], { stdio: ['pipe', 'pipe', 'inherit'] })
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      child.once('exit', () => (clearTimeout(timer), resolve()))
      child.stdin.end()
    })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${script} printed nothing within ${timeoutMs} ms`))
    }, timeoutMs)
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${script} exited (${code}) before it was ready`))))
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer)
      try {
        resolve({ value: JSON.parse(line), stop })
      } catch {
        stop().then(() => reject(new Error(`${script} printed ${JSON.stringify(line)} instead of JSON`)))
      }
    })
  })
}

/**
 * Runs `node [nodeArgs] part.mjs <name>` with `input` on stdin; resolves with the JSON of its last stdout line.
 * A part that runs longer than `timeoutMs` is killed and the promise rejects.
 */
export function runPart(script, name, input, { nodeArgs = [], timeoutMs = 120_000 } = {}) {
  const child = spawn(node, [...nodeArgs, script, name], { stdio: ['pipe', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk))
  child.stdin.end(JSON.stringify(input))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      const last = out.trim().split('\n').at(-1) ?? ''
      if (code !== 0) return reject(new Error(`part ${name} ${signal ? `was killed (${signal})` : `exited with ${code}`}`))
      try {
        resolve(JSON.parse(last))
      } catch {
        reject(new Error(`part ${name} ended without a JSON result line`))
      }
    })
  })
}
