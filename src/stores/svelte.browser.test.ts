// Proof that the atoms bind to Svelte 5 with no binding library (a nanostores atom is a Svelte store): a real .svelte
// component reading $tools, mounted with mount() against the real embedded servers, sees a tool added on the server
// appear without a reload, keeps the other items' DOM nodes, and lets the atom go once it is unmounted.
import { describe, expect, it, vi } from 'vitest'
import { mount, unmount } from 'svelte'
import ToolList from '../testing/tool-list.svelte'
import { addedOnServer, cleanups, loaded, stage } from '../testing/bindings-kit'

const later = cleanups()

describe.each(['modern', 'legacy'] as const)('a Svelte component bound to $tools (%s server)', (kind) => {
  it('shows a tool the server adds, without a reload, keeping the other items; unmounting lets the atom go', async () => {
    const { server, mcp, container, dispose } = stage(kind, 'svelte')
    let component: ReturnType<typeof mount> | undefined = mount(ToolList, { target: container, props: { mcp } })
    later(async () => {
      if (component) await unmount(component)
      await dispose()
    })

    const items = () => [...container.querySelectorAll('li')]
    const before = await loaded(container, mcp, kind)
    const nodesBefore = items()

    await addedOnServer(container, server.control!, before)
    // The keyed {#each} kept every unchanged tool's DOM node: only the new item was created.
    items().slice(0, before.length).forEach((node, i) => expect(node).toBe(nodesBefore[i]))

    // Unmounting ends the component's store subscription; nanostores then unmounts the atom, which closes the listen.
    await unmount(component)
    component = undefined
    expect(mcp.$tools.lc).toBe(0)
    expect(container.querySelector('li')).toBeNull()
    await vi.waitFor(() => expect(mcp.$subscription.get()).toMatchObject({ status: 'closed', reason: 'client' }), { timeout: 10_000 })
  })
})
