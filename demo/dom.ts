// The one way the demo builds DOM: children are nodes or strings, and strings always become text nodes,
// so a server-provided string can never turn into markup.
export type Child = Node | string | number | false | null | undefined
type Attr = string | number | boolean | undefined | ((event: Event) => void)

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, Attr> = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value)
    else if (value !== undefined && value !== false) el.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat()) {
    if (child === false || child === null || child === undefined) continue
    el.append(typeof child === 'object' ? child : String(child))
  }
  return el
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id)
  if (!el) throw new Error(`#${id} is missing from index.html`)
  return el as T
}

let lastId = 0
/** Unique element ids, so every generated control can have a `<label for>`. */
export const uid = (prefix: string) => `${prefix}-${++lastId}`

/** Pretty JSON for display; cut so a huge payload cannot freeze the page. */
export function json(value: unknown, limit = 20_000): string {
  let text: string
  try {
    text = JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > limit ? `${text.slice(0, limit)}\n… (${text.length - limit} more characters)` : text
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** `replaceChildren` that skips empty children, like `h`. */
export function fill(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren(...h('div', {}, ...children).childNodes)
}
