// Pinned definitions: a tool is handed to the model only while its definition is the one the user approved.
// A server that rewrites a description or a schema later ("rug pull") gets the tool withheld until the app
// accepts the change, instead of the model silently reading new instructions.
import { atom, type ReadableAtom } from 'nanostores'
import type { Tool } from '../schemas/types'
import { deepEqual } from '../stores/deep-equal'
import { toolFingerprint } from './fingerprint'

export interface PinChange {
  tool: Tool
  /** The fingerprint that was approved. */
  pinned: string
  /** The fingerprint of the definition the server lists now. */
  current: string
}

export interface ToolPins {
  /** Tools withheld because their definition changed since it was pinned; updates as tools change or are accepted. */
  readonly $changed: ReadableAtom<readonly PinChange[]>
  /** Trusts the tool's current definition (after the user looked at the change): it joins the tool set again. */
  accept(name: string): void
  /** MCP tool name → approved fingerprint, for the app to store and hand back as `pinned` next time. */
  snapshot(): Record<string, string>
  /** Splits a listing into tools that may reach the model and changed ones that may not. */
  check(tools: readonly Tool[]): Promise<{ kept: Tool[]; changed: PinChange[] }>
}

export interface PinOptions {
  /** Fingerprints approved earlier (from `snapshot()`), by MCP tool name. */
  pinned?: Record<string, string>
  /** Called whenever the pinned set grows or changes, with the new snapshot (to persist it). */
  onPin?: (pinned: Record<string, string>) => void
  /** A tool never seen before: pin it at once (trust on first use, the default) or withhold it like a change. */
  trustNew?: boolean
}

/** Keeps approved tool fingerprints; give it to `aiTools(mcp, { pinTools })` to withhold changed tools. */
export function pinTools(options: PinOptions = {}): ToolPins {
  const pinned = new Map(Object.entries(options.pinned ?? {}))
  const $changed = atom<readonly PinChange[]>([])
  const snapshot = () => Object.fromEntries(pinned)
  const pin = (name: string, fingerprint: string) => (pinned.set(name, fingerprint), options.onPin?.(snapshot()))
  return {
    $changed,
    accept(name) {
      const change = $changed.get().find((entry) => entry.tool.name === name)
      if (!change) return
      pin(name, change.current)
      $changed.set($changed.get().filter((entry) => entry !== change))
    },
    snapshot,
    async check(tools) {
      const kept: Tool[] = []
      const changed: PinChange[] = []
      for (const tool of tools) {
        const current = await toolFingerprint(tool)
        if (!pinned.has(tool.name) && options.trustNew !== false) pin(tool.name, current)
        if (pinned.get(tool.name) === current) kept.push(tool)
        else changed.push({ tool, pinned: pinned.get(tool.name) ?? '', current })
      }
      // Set only when it differs: aiTools rebuilds on every change of this atom.
      if (!deepEqual(changed, $changed.get())) $changed.set(changed)
      return { kept, changed }
    },
  }
}
