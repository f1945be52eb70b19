// What the binding tests (React, Vue, Svelte) share: the list as a component renders it, its first load with a
// standing subscription, and a tool added on the server arriving after the others.
import { afterEach, expect, inject, vi } from 'vitest'
import { scoped } from '../../scripts/servers/scoped'
import { createMcp } from '../stores/create-mcp'
import type { Mcp } from '../stores/types'

const WAIT = { timeout: 10_000 }

export const renderedNames = (container: HTMLElement) => [...container.querySelectorAll('li')].map((li) => li.dataset.name)

/** Waits for the first list and an acknowledged subscription; returns the names rendered then. */
export async function loaded(container: HTMLElement, mcp: Mcp, era: 'modern' | 'legacy'): Promise<(string | undefined)[]> {
  await vi.waitFor(() => expect(container.querySelector('.state')!.textContent).toMatch(/^\d+ tools$/), WAIT)
  const before = renderedNames(container)
  expect(before.length).toBeGreaterThan(0)
  expect(mcp.$server.get()?.era).toBe(era)
  // The subscription must stand before the change, or there would be nothing to hear it on.
  await vi.waitFor(() => expect(mcp.$subscription.get()?.status).toBe('acknowledged'), WAIT)
  expect(mcp.$subscription.get()).toMatchObject({ notifications: { toolsListChanged: true } })
  return before
}

/** Adds a tool through the server's control endpoint and waits until it is rendered after the others. */
export async function addedOnServer(container: HTMLElement, control: string, before: (string | undefined)[]): Promise<string> {
  const response = await fetch(`${control}/control/add-tool`, { method: 'POST' })
  const { name } = (await response.json()) as { name: string }
  await vi.waitFor(() => expect(renderedNames(container)).toContain(name), WAIT)
  expect(renderedNames(container)).toEqual([...before, name])
  expect(container.querySelector('.state')!.textContent).toBe(`${before.length + 1} tools`)
  return name
}

/**
 * What one binding test renders into: a scoped embedded server of `kind`, a createMcp for it and a container in the
 * page. `dispose()` removes the container and closes the client, after the framework has unmounted its component.
 */
export function stage(kind: 'modern' | 'legacy', framework: string) {
  const server = scoped(inject('servers')[kind], `stores-${framework}-${kind}-${Date.now().toString(36)}`)
  const mcp = createMcp(server.url)
  const container = document.createElement('div')
  document.body.append(container)
  const dispose = async () => {
    container.remove()
    await mcp.close()
  }
  return { server, mcp, container, dispose }
}

/** Registers an afterEach that runs what the test handed to the returned function, then `after`. */
export function cleanups(after?: () => void): (cleanup: () => Promise<void>) => void {
  let pending: (() => Promise<void>) | undefined
  afterEach(async () => {
    await pending?.()
    pending = undefined
    after?.()
  })
  return (cleanup) => void (pending = cleanup)
}

/**
 * The first list, then a tool added on the server: the unchanged items kept their identity, so the framework skipped
 * their render (`renders` counts each item's renders by name) and kept their DOM nodes; only the new one rendered.
 */
export async function onlyTheNewItemRenders(container: HTMLElement, mcp: Mcp, era: 'modern' | 'legacy', control: string, renders: Map<string, number>): Promise<void> {
  const before = await loaded(container, mcp, era)
  const firstNode = container.querySelector('li')
  const name = await addedOnServer(container, control, before)
  expect(container.querySelector('li')).toBe(firstNode)
  for (const old of before) expect(renders.get(old!)).toBe(1)
  expect(renders.get(name)).toBe(1)
}
