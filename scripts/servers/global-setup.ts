// Vitest globalSetup (runs once per project): starts the embedded MCP servers and hands their URLs to the
// tests as inject('servers'). NANOMCP_SERVERS=modern,legacy starts only those (faster when that is all a
// run needs); tests that inject a server that was not started get undefined for it.
import type { TestProject } from 'vitest/node'
import { SERVER_KINDS, startServers } from './start.mjs'
import type { ServerKind, Servers } from './types.ts'

export default async function setup(project: TestProject) {
  const only = process.env.NANOMCP_SERVERS?.split(',').map((kind) => kind.trim()).filter(Boolean) as
    | ServerKind[]
    | undefined
  const { servers, stop } = await startServers({ only: only ?? SERVER_KINDS })
  project.provide('servers', servers as Servers)
  return stop
}
