// Proof that the atoms bind to a UI framework: a React component over useStore(mcp.$tools), against the real
// embedded servers, sees a tool added on the server appear without a reload, and re-renders only that item.
import { afterEach, describe, expect, inject, it } from 'vitest'
import { memo } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { useStore } from '@nanostores/react'
import { scoped } from '../../scripts/servers/scoped'
import { addedOnServer, loaded } from '../testing/bindings-kit'
import { createMcp } from './create-mcp'
import type { Mcp, Tool } from './types'

const renders = new Map<string, number>()

const Item = memo(function Item({ tool }: { tool: Tool }) {
  renders.set(tool.name, (renders.get(tool.name) ?? 0) + 1)
  return <li data-name={tool.name}>{tool.title ?? tool.name}</li>
})

function Tools({ mcp }: { mcp: Mcp }) {
  const { items, loading, error } = useStore(mcp.$tools)
  return (
    <section>
      <p className="state">{loading ? 'loading' : error ? `error: ${error.message}` : `${items.length} tools`}</p>
      <ul>
        {items.map((tool) => (
          <Item key={tool.name} tool={tool} />
        ))}
      </ul>
    </section>
  )
}

let cleanup: (() => Promise<void>) | undefined
afterEach(async () => {
  await cleanup?.()
  cleanup = undefined
  renders.clear()
})

describe.each(['modern', 'legacy'] as const)('a React component bound to $tools (%s server)', (kind) => {
  it('shows a tool the server adds, without a reload, re-rendering only the new item', async () => {
    const server = scoped(inject('servers')[kind], `stores-react-${kind}-${Date.now().toString(36)}`)
    const mcp = createMcp(server.url)
    const container = document.createElement('div')
    document.body.append(container)
    const root: Root = createRoot(container)
    cleanup = async () => {
      root.unmount()
      container.remove()
      await mcp.close()
    }
    root.render(<Tools mcp={mcp} />)

    const before = await loaded(container, mcp, kind)
    const firstNode = container.querySelector('li')

    const name = await addedOnServer(container, server.control!, before)
    // Unchanged tools kept their identity, so memo() skipped them and React kept their DOM nodes.
    expect(container.querySelector('li')).toBe(firstNode)
    for (const old of before) expect(renders.get(old!)).toBe(1)
    expect(renders.get(name)).toBe(1)
  })
})
