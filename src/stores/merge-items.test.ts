import { describe, expect, it } from 'vitest'
import { deepEqual } from './deep-equal'
import { mergeItems } from './merge-items'

const byName = (t: { name: string }) => t.name

describe('mergeItems', () => {
  it('keeps the previous object for every item whose JSON did not change, whatever its key order', () => {
    const a = { name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } }
    const b = { name: 'b', inputSchema: { type: 'object' } }
    const next = [
      { name: 'b', inputSchema: { type: 'object' } },
      { inputSchema: { properties: { x: { type: 'string' } }, type: 'object' }, name: 'a' },
      { name: 'c', inputSchema: { type: 'object' } },
    ]
    const merged = mergeItems([a, b], next, byName)
    expect(merged[0]).toBe(b)
    expect(merged[1]).toBe(a)
    expect(merged[2]).toBe(next[2])
  })

  it('gives a new object for a changed item and returns the previous array when nothing changed', () => {
    const prev = [{ name: 'a', description: 'one' }, { name: 'b' }]
    const changed = mergeItems(prev, [{ name: 'a', description: 'two' }, { name: 'b' }], byName)
    expect(changed).not.toBe(prev)
    expect(changed[0]).not.toBe(prev[0])
    expect(changed[1]).toBe(prev[1])
    expect(mergeItems(prev, [{ name: 'a', description: 'one' }, { name: 'b' }], byName)).toBe(prev)
    // Same items in another order is a change of the list, not of the items.
    const reordered = mergeItems(prev, [{ name: 'b' }, { name: 'a', description: 'one' }], byName)
    expect(reordered).not.toBe(prev)
    expect(reordered).toEqual([prev[1], prev[0]])
    expect(reordered[0]).toBe(prev[1])
  })
})

describe('deepEqual', () => {
  it('tells JSON values apart', () => {
    expect(deepEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true)
    expect(deepEqual({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false)
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false)
    expect(deepEqual({ a: 1, c: 2 }, { a: 1, b: 2 })).toBe(false)
    expect(deepEqual([], {})).toBe(false)
    expect(deepEqual(null, {})).toBe(false)
    expect(deepEqual('1', 1)).toBe(false)
  })
})
