import { afterEach, describe, expect, it } from 'vitest'
import { createRootsEditor } from './roots'

function memoryStorage(initial: Record<string, string> = {}): Storage {
  const data = new Map(Object.entries(initial))
  return {
    get length() {
      return data.size
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  }
}

const mounted: HTMLElement[] = []
afterEach(() => mounted.splice(0).forEach((el) => el.remove()))
function mount(storage: Storage) {
  const editor = createRootsEditor(storage)
  document.body.append(editor.element)
  mounted.push(editor.element)
  const [uri, name] = editor.element.querySelectorAll('input')
  const add = (u: string, n = '') => {
    uri!.value = u
    name!.value = n
    editor.element.querySelector('form')!.requestSubmit()
  }
  return { editor, add }
}

describe('createRootsEditor', () => {
  it('adds, replaces and removes roots, tells listeners, and remembers the list', () => {
    const storage = memoryStorage()
    const { editor, add } = mount(storage)
    const seen: unknown[] = []
    editor.onChange((roots) => seen.push(roots))
    add('file:///a', 'A')
    add('file:///b')
    add('file:///a', 'A again')
    expect(editor.list()).toEqual([{ uri: 'file:///b' }, { uri: 'file:///a', name: 'A again' }])
    editor.element.querySelector<HTMLButtonElement>('button[aria-label="Remove file:///b"]')!.click()
    expect(editor.list()).toEqual([{ uri: 'file:///a', name: 'A again' }])
    expect(seen).toHaveLength(4)
    expect(createRootsEditor(storage).list()).toEqual([{ uri: 'file:///a', name: 'A again' }])
  })

  it('refuses a URI that is not file:// with a message and keeps the list', () => {
    const { editor, add } = mount(memoryStorage())
    add('https://example.com')
    expect(editor.list()).toEqual([])
    expect(editor.element.querySelector('[role=alert]')!.textContent).toMatch(/file:\/\/ URIs/)
  })

  it('renders names as text and drops garbage it finds in storage', () => {
    const storage = memoryStorage({ 'nanomcp-demo:roots': JSON.stringify([{ uri: 'file:///ok', name: '<img src=x>' }, { uri: 'http://bad' }, 42, { name: 'no uri' }]) })
    const { editor } = mount(storage)
    expect(editor.list()).toEqual([{ uri: 'file:///ok', name: '<img src=x>' }])
    expect(editor.element.querySelector('img')).toBeNull()
    expect(createRootsEditor(memoryStorage({ 'nanomcp-demo:roots': '{not json' })).list()).toEqual([])
  })
})
