// The tab's copies of the host's atoms: their empty values, list watching on mount, and updates from 'atom' messages.
import { atom, onMount, type WritableAtom } from 'nanostores'
import type { AuthState } from '../auth/types'
import { mergeItems } from '../stores/merge-items'
import type { ListState } from '../stores/types'
import { ATOMS, type AtomName, type HostMessage } from './protocol'
import { decodeValue } from './wire-error'

// Each list atom and the field that identifies its items (as in stores/list-kinds, which would pull the
// transport's validation into every tab).
const LIST_KEY: Partial<Record<AtomName, string>> = { $tools: 'name', $prompts: 'name', $resources: 'uri', $resourceTemplates: 'uriTemplate' }

export interface Mirror {
  readonly atoms: Record<AtomName, WritableAtom<unknown>>
  /** The lists on screen in this tab, which the host keeps loaded (told again in each hello). */
  readonly watching: Set<AtomName>
  apply(message: Extract<HostMessage, { t: 'atom' }>): void
}

/** `watch` tells the host a list came on screen in this tab, or left it. */
export function createMirror(watch: (name: AtomName, on: boolean) => void): Mirror {
  const atoms = {} as Record<AtomName, WritableAtom<unknown>>
  const watching = new Set<AtomName>()
  for (const name of ATOMS) {
    const list = LIST_KEY[name]
    atoms[name] = atom<unknown>(
      list
        ? ({ items: [], loading: false, error: undefined, stale: false, updatedAt: 0 } satisfies ListState<never>)
        : name === '$status'
          ? { status: 'idle' }
          : name === '$auth'
            ? ({ status: 'none' } satisfies AuthState)
            : undefined,
    )
    if (list)
      onMount(atoms[name], () => {
        watching.add(name)
        watch(name, true)
        return () => {
          watching.delete(name)
          watch(name, false)
        }
      })
  }
  return {
    atoms,
    watching,
    apply(message) {
      const value = decodeValue(message.value) as ListState<object> | undefined
      const key = LIST_KEY[message.name]
      const target = atoms[message.name]
      if (key && value) value.items = mergeItems((target.get() as ListState<object>).items, value.items as object[], (item) => String((item as Record<string, unknown>)[key]))
      target.set(value)
    },
  }
}
