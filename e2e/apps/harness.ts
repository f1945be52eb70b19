// What the apps suite runs on: the host page (Vite serving e2e/apps/host.html and the library sources), the
// shipped sandbox.html on a plain static server (another origin), our fixture server and the official example
// servers from npm, all on 127.0.0.1 with ports of their own.
import { createServer as netServer } from 'node:net'
import { createServer as viteServer, type ViteDevServer } from 'vite'
import { serveStatic, type StaticSite } from '../static-server'
import { startFixtureServer, type FixtureServer } from './fixture-server'
// @ts-expect-error: a JavaScript module without declarations
import { startAppServers } from '../../scripts/servers/apps.mjs'

export interface Harness {
  host: string
  sandbox: string
  sandboxSite: StaticSite
  fixture: FixtureServer
  examples: Record<string, { url: string }>
  close(): Promise<void>
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = netServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

export async function startHarness(): Promise<Harness> {
  const started: { close(): Promise<void> }[] = []
  try {
    const examplesStarting = startAppServers() as Promise<{ servers: Record<string, { url: string }>; stop(): Promise<void> }>
    const fixture = await startFixtureServer()
    started.push(fixture)
    const sandboxSite = await serveStatic('src/apps', '/')
    started.push(sandboxSite)
    const port = await freePort()
    const vite: ViteDevServer = await viteServer({
      configFile: false,
      root: process.cwd(),
      logLevel: 'silent',
      clearScreen: false,
      server: { host: '127.0.0.1', port, strictPort: true, hmr: false },
      optimizeDeps: { noDiscovery: true, include: [] },
    })
    await vite.listen()
    started.push(vite)
    const examples = await examplesStarting
    started.push({ close: examples.stop })
    return {
      host: `http://127.0.0.1:${port}/e2e/apps/host.html`,
      sandbox: `${sandboxSite.url}sandbox.html`,
      sandboxSite,
      fixture,
      examples: examples.servers,
      close: async () => void (await Promise.allSettled(started.map((s) => s.close()))),
    }
  } catch (error) {
    await Promise.allSettled(started.map((s) => s.close()))
    throw error
  }
}
