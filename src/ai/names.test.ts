import { describe, expect, it } from 'vitest'
import type { Tool } from '../schemas/types'
import { mcpToolName, providerNames } from './names'

const tools = (...names: string[]) => names.map((name) => ({ name, inputSchema: { type: 'object' } }) as Tool)
const named = (list: Tool[], prefix?: string) => [...providerNames(list, prefix).names].map(([name, tool]) => [tool.name, name])

describe('provider names', () => {
  it('keeps valid names, turns other characters into _', () => {
    expect(named(tools('get_weather', 'read file', 'files.read', 'ns/tool', 'café'))).toEqual([
      ['get_weather', 'get_weather'],
      ['read file', 'read_file'],
      ['files.read', 'files_read'],
      ['ns/tool', 'ns_tool'],
      ['café', 'caf_'],
    ])
  })

  it('cuts names over 64 characters to 55 plus a digest, and long names sharing a start stay apart', () => {
    const long = named(tools('x'.repeat(70), 'x'.repeat(70) + 'y'))
    expect(long.map(([, name]) => name!.length)).toEqual([64, 64])
    expect(long[0]![1]).not.toBe(long[1]![1])
    expect(long[0]![1]).toMatch(/^x{55}_[0-9a-f]{8}$/)
  })

  it('on a collision the valid name keeps it and the others get a digest suffix, whatever the order', () => {
    const a = Object.fromEntries(named(tools('a.b', 'a_b', 'a b')))
    const b = Object.fromEntries(named(tools('a b', 'a.b', 'a_b')))
    expect(a).toEqual(b)
    expect(a['a_b']).toBe('a_b')
    expect(a['a.b']).toMatch(/^a_b_[0-9a-f]{8}$/)
    expect(new Set(Object.values(a)).size).toBe(3)
  })

  it('puts the prefix first and maps every name back exactly', () => {
    const list = tools('echo', 'files.read', 'x'.repeat(80), 'a.b', 'a_b')
    const { names } = providerNames(list, 'gh_')
    expect([...names.keys()][0]).toBe('gh_echo')
    for (const [name, tool] of names) {
      expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
      expect(mcpToolName(name, list, { prefix: 'gh_' })).toBe(tool.name)
    }
    expect(mcpToolName('gh_nothing', list, { prefix: 'gh_' })).toBeUndefined()
  })

  it('leaves out a name with no character a provider accepts, with a typed error', () => {
    const { names, skipped } = providerNames(tools('🙂', '...', 'ok'))
    expect([...names.keys()]).toEqual(['ok'])
    expect(skipped.map((e) => [e.name, e.reason, e.tool])).toEqual([
      ['AiToolError', 'name', '🙂'],
      ['AiToolError', 'name', '...'],
    ])
  })
})
