// Proof that the atoms bind to a UI framework: a React component over useStore(mcp.$tools), against the real
// embedded servers, sees a tool added on the server appear without a reload, and re-renders only that item.
import { describe, it } from 'vitest'
import { memo } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { useStore } from '@nanostores/react'
import { cleanups, onlyTheNewItemRenders, stage } from '../testing/bindings-kit'
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

const later = cleanups(() => renders.clear())

describe.each(['modern', 'legacy'] as const)('a React component bound to $tools (%s server)', (kind) => {
  it('shows a tool the server adds, without a reload, re-rendering only the new item', async () => {
    const { server, mcp, container, dispose } = stage(kind, 'react')
    const root: Root = createRoot(container)
    later(async () => {
      root.unmount()
      await dispose()
    })
    root.render(<Tools mcp={mcp} />)

    await onlyTheNewItemRenders(container, mcp, kind, server.control!, renders)
  })
})
