// $aiTools follows the server's tool list, and pinTools withholds a tool whose definition changed.
import { afterEach, expect, inject, it } from 'vitest'
import { forgetEras } from '../client/client'
import { createMcp } from '../stores/create-mcp'
import type { Mcp } from '../stores/types'
import { scoped } from '../../scripts/servers/scoped.ts'
import { when } from '../testing/wait'
import { $aiTools } from './ai-tools'
import { pinTools } from './pin-tools'

const servers = inject('servers')
const closing: Mcp[] = []
afterEach(async () => {
  await Promise.all(closing.splice(0).map((c) => c.close()))
  forgetEras()
})
const post = (url: string) => fetch(url, { method: 'POST' }).then((r) => r.json())

it.each(['modern', 'legacy'] as const)('the atom follows a list_changed on the %s server', async (kind) => {
  const server = scoped(servers[kind], `ai-atom-${kind}`)
  await post(`${server.control}/control/reset`)
  const mcp = createMcp(server.url)
  closing.push(mcp)
  const $tools = $aiTools(mcp, { prefix: 'srv_' })
  const off = $tools.listen(() => undefined)
  const first = await when($tools, (s) => !s.loading && 'srv_echo' in s.tools)
  expect(Object.keys(first.tools).some((name) => name.startsWith('srv_extra_'))).toBe(false)
  // Announcements reach only a client that listens: wait until the server has acknowledged the subscription.
  await when(mcp.$subscription, (s) => s?.status === 'acknowledged')
  const { name } = await post(`${server.control}/control/add-tool`)
  const after = await when($tools, (s) => `srv_${name}` in s.tools)
  expect(Object.keys(after.tools).length).toBe(Object.keys(first.tools).length + 1)
  off()
})

it('pinTools withholds a tool whose definition changed until the app accepts it', async () => {
  const pins = pinTools({ pinned: { echo: 'a fingerprint approved for an older definition' }, onPin: (pinned) => saved.push(pinned) })
  const saved: Record<string, string>[] = []
  const mcp = createMcp(scoped(servers.modern, 'ai-pins').url)
  closing.push(mcp)
  const $tools = $aiTools(mcp, { pinTools: pins })
  const off = $tools.listen(() => undefined)
  const state = await when($tools, (s) => !s.loading && 'add' in s.tools)
  expect(state.tools).not.toHaveProperty('echo')
  expect(state.withheld.map((change) => change.tool.name)).toEqual(['echo'])
  expect(pins.$changed.get().map((change) => change.tool.name)).toEqual(['echo'])
  pins.accept('echo')
  const accepted = await when($tools, (s) => 'echo' in s.tools)
  expect(accepted.withheld).toEqual([])
  expect(pins.snapshot().echo).toMatch(/^[0-9a-f]{64}$/)
  // Saved when the new tools were first pinned and again when echo was accepted.
  expect(saved.at(-1)?.echo).toBe(pins.snapshot().echo)
  off()
})
