// Setup the servers' Node smoke tests share: the started servers, a scope of its own per test, and readers of results.
import { inject } from 'vitest'
import { scoped } from './scoped.ts'

export const servers = inject('servers')

/**
 * Every test that changes a server works in its own scope, so tests running in parallel never see its changes.
 * `file` keeps the scopes of two test files apart: a worker process may run one after the other.
 */
export function scopes(file: string) {
  let count = 0
  return (kind: 'modern' | 'legacy' | 'sse') => scoped(servers[kind], `node-${file}-${process.pid}-${++count}`)
}

export const SSE_INIT = {
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '0' } },
}
export const toolNames = (result: any): string[] => result.tools.map((tool: { name: string }) => tool.name)
export const textOf = (result: any): string => result.content[0].text
