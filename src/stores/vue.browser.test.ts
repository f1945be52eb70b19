// Proof that the atoms bind to Vue as they do to React: a component over useStore(mcp.$tools) from
// @nanostores/vue, against the real embedded servers, sees a tool added on the server appear without a reload,
// re-renders only that item, and lets the atom go (and with it the subscription) once it is unmounted.
import { describe, expect, it, vi } from 'vitest'
import { createApp, defineComponent, h, type App, type PropType } from 'vue'
import { useStore } from '@nanostores/vue'
import { cleanups, onlyTheNewItemRenders, stage } from '../testing/bindings-kit'
import type { Mcp, Tool } from './types'

const renders = new Map<string, number>()

// Vue patches a child only when its props changed, so an item whose tool kept its identity is not rendered again.
const Item = defineComponent({
  props: { tool: { type: Object as PropType<Tool>, required: true } },
  setup(props) {
    return () => {
      renders.set(props.tool.name, (renders.get(props.tool.name) ?? 0) + 1)
      return h('li', { 'data-name': props.tool.name }, props.tool.title ?? props.tool.name)
    }
  },
})

const Tools = defineComponent({
  props: { mcp: { type: Object as PropType<Mcp>, required: true } },
  setup(props) {
    const tools = useStore(props.mcp.$tools)
    return () => {
      const { items, loading, error } = tools.value
      return h('section', [
        h('p', { class: 'state' }, loading ? 'loading' : error ? `error: ${error.message}` : `${items.length} tools`),
        h('ul', items.map((tool) => h(Item, { key: tool.name, tool: tool as Tool }))),
      ])
    }
  },
})

const later = cleanups(() => renders.clear())

describe.each(['modern', 'legacy'] as const)('a Vue component bound to $tools (%s server)', (kind) => {
  it('shows a tool the server adds, without a reload, re-rendering only the new item; unmounting lets the atom go', async () => {
    const { server, mcp, container, dispose } = stage(kind, 'vue')
    let app: App | undefined = createApp(Tools, { mcp })
    later(async () => {
      app?.unmount()
      await dispose()
    })
    app.mount(container)

    await onlyTheNewItemRenders(container, mcp, kind, server.control!, renders)

    // Unmounting drops useStore's listener; nanostores then unmounts the atom, which closes the subscription.
    app.unmount()
    app = undefined
    expect(mcp.$tools.lc).toBe(0)
    expect(container.querySelector('li')).toBeNull()
    await vi.waitFor(() => expect(mcp.$subscription.get()).toMatchObject({ status: 'closed', reason: 'client' }), { timeout: 10_000 })
  })
})
