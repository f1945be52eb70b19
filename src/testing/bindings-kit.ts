// What the binding tests (React, Vue, Svelte) share: the list as a component renders it, its first load with a
// standing subscription, and a tool added on the server arriving after the others.
import { expect, vi } from 'vitest'
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
