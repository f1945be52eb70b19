// `npm run demo` itself: it serves the page with the embedded servers baked in, stops everything on SIGTERM,
// and refuses a busy port with a message instead of hanging.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { connect, expect, item, test, freePort } from './helpers'

function runDemo(port: number) {
  const child = spawn(process.execPath, ['scripts/demo.mjs', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, exited, output: () => output }
}

const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms))])

function stopChild(child: ChildProcess) {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}

test('npm run demo: serves the page with the embedded servers and stops them on SIGTERM', async ({ page }) => {
  test.setTimeout(120_000)
  const port = await freePort()
  const demo = runDemo(port)
  try {
    await expect.poll(demo.output, { timeout: 90_000, message: 'the demo prints its URL' }).toContain('nanomcp demo: http')
    const url = /nanomcp demo: (http\S+)/.exec(demo.output())?.[1] ?? ''
    // The stdio bridge's token rides in the printed link.
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?bridge=[\\w-]{32}`))
    const modernUrl = /modern\s+(http\S+)/.exec(demo.output())?.[1] ?? ''
    const everythingUrl = /everything\s+(http\S+)/.exec(demo.output())?.[1] ?? ''
    expect(modernUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    expect(everythingUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)

    // The dev page needs no ?servers=: the list is baked in.
    await page.goto(url)
    await connect(page, 'modern')
    await expect(page.getByTestId('era')).toHaveText('modern')
    await expect(item(page, 'echo')).toBeVisible()

    demo.child.kill('SIGTERM')
    expect(await within(demo.exited, 15_000, 'stopping')).toBe(0)
    // Our servers and server-everything's child process are gone: their ports refuse connections.
    for (const url of [modernUrl, everythingUrl]) {
      await expect(fetch(url, { method: 'POST', signal: AbortSignal.timeout(3000) })).rejects.toThrow()
    }
  } finally {
    stopChild(demo.child)
  }
})

test('npm run demo: a busy port is a clear message and a non-zero exit', async () => {
  const busy: Server = createServer()
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
  const port = (busy.address() as AddressInfo).port
  const demo = runDemo(port)
  try {
    expect(await within(demo.exited, 30_000, 'exiting')).toBe(1)
    expect(demo.output()).toContain(`port ${port} on 127.0.0.1 is already in use`)
    expect(demo.output()).toContain('--port')
  } finally {
    stopChild(demo.child)
    await new Promise((resolve) => busy.close(resolve))
  }
})
