// Autocompletion for prompt arguments and resource-template variables through `completion/complete`, on servers
// that declare the `completions` capability. Suggestions appear as buttons under the field (and in a datalist,
// so the browser's own dropdown offers them too); choosing one fills the field.
import type { Mcp } from '../src/index'
import { fill, h, uid } from './dom'

type Ref = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }

const DEBOUNCE_MS = 200
const SHOWN = 12

/** Wires every named text input under `root`; returns nothing to undo: the inputs go when the pane is redrawn. */
export function attachCompletions(root: HTMLElement, mcp: Mcp, ref: Ref): void {
  if (mcp.$server.get()?.capabilities.completions === undefined) return
  const inputs = [...root.querySelectorAll<HTMLInputElement>('input[name]')].filter((i) => i.type === 'text' || i.type === 'search' || i.type === '')
  const values = () => Object.fromEntries(inputs.map((i) => [i.name, i.value]))

  for (const input of inputs) {
    const listId = uid('complete')
    const datalist = h('datalist', { id: listId })
    const chips = h('div', { class: 'suggestions', 'data-testid': `suggestions-${input.name}`, 'aria-live': 'polite' })
    input.setAttribute('list', listId)
    input.setAttribute('autocomplete', 'off')
    input.after(datalist, chips)
    let timer: ReturnType<typeof setTimeout> | undefined
    let asked = 0

    const ask = async () => {
      const mine = ++asked
      const { [input.name]: _, ...others } = values()
      try {
        const result = await mcp.complete(ref, { name: input.name, value: input.value }, { arguments: others }, { timeout: 10_000 })
        if (mine !== asked) return
        const shown = result.values.slice(0, SHOWN)
        datalist.replaceChildren(...shown.map((value) => h('option', { value })))
        fill(
          chips,
          shown.map((value) =>
            h('button', {
              type: 'button',
              class: 'chip-button small',
              onclick: () => {
                input.value = value
                input.dispatchEvent(new Event('input', { bubbles: true }))
                input.focus()
              },
            }, value),
          ),
          (result.hasMore || (result.total ?? 0) > shown.length) && h('span', { class: 'hint' }, ` and ${result.total ? result.total - shown.length : 'more'}…`),
        )
      } catch (error) {
        // A server may refuse completion for one argument; the field still works without suggestions.
        if (mine === asked) chips.replaceChildren(h('span', { class: 'hint' }, `No suggestions: ${error instanceof Error ? error.message : String(error)}`))
      }
    }
    const schedule = () => {
      clearTimeout(timer)
      timer = setTimeout(() => void ask(), DEBOUNCE_MS)
    }
    input.addEventListener('input', schedule)
    input.addEventListener('focus', schedule, { once: true })
  }
}
