import { afterEach, describe, expect, it } from 'vitest'
import { FormInputError, schemaForm } from './schema-form'

const mounted: HTMLElement[] = []
function mount(schema: unknown) {
  const form = schemaForm(schema)
  document.body.append(form.element)
  mounted.push(form.element)
  return form
}
const control = <T extends HTMLElement>(root: HTMLElement, name: string) => root.querySelector<T>(`[name="${name}"]`)!
afterEach(() => mounted.splice(0).forEach((el) => el.remove()))

describe('schemaForm', () => {
  it('reads strings, numbers, integers and booleans with their types, leaving empty optionals out', () => {
    const form = mount({
      type: 'object',
      properties: {
        text: { type: 'string' },
        ratio: { type: 'number' },
        count: { type: 'integer', minimum: 1 },
        loud: { type: 'boolean' },
        note: { type: 'string' },
      },
      required: ['text', 'count'],
    })
    control<HTMLInputElement>(form.element, 'text').value = 'hi'
    control<HTMLInputElement>(form.element, 'ratio').value = '0.5'
    control<HTMLInputElement>(form.element, 'count').value = '3'
    expect(control<HTMLInputElement>(form.element, 'count').min).toBe('1')
    expect(form.read()).toEqual({ text: 'hi', ratio: 0.5, count: 3 })

    const loud = control<HTMLInputElement>(form.element, 'loud')
    loud.click()
    loud.click()
    // Touched, so an explicit false is sent even though the box ends unchecked.
    expect(form.read()).toMatchObject({ loud: false })
  })

  it('names the field at fault', () => {
    const form = mount({ type: 'object', properties: { count: { type: 'integer', title: 'Count' } }, required: ['count'] })
    expect(() => form.read()).toThrow(new FormInputError('“Count” is required.'))
    control<HTMLInputElement>(form.element, 'count').value = '1.5'
    expect(() => form.read()).toThrow('“Count” must be a whole number.')
  })

  it('gives every control a label', () => {
    const form = mount({
      type: 'object',
      properties: { a: { type: 'string' }, b: { enum: ['x', 'y'] }, c: { type: 'array', items: { type: 'number' } }, d: { type: 'object' } },
    })
    for (const el of form.element.querySelectorAll<HTMLInputElement>('input, select, textarea')) {
      expect(el.labels?.length, el.name).toBeGreaterThan(0)
    }
  })

  it('offers enums, titled oneOf and legacy enumNames as choices and returns the value, not the label', () => {
    const form = mount({
      type: 'object',
      properties: {
        size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'], default: 'm' },
        level: { oneOf: [{ const: 1, title: 'Low' }, { const: 2, title: 'High' }] },
      },
    })
    const size = control<HTMLSelectElement>(form.element, 'size')
    expect([...size.options].map((o) => o.text)).toEqual(['(none)', 'Small', 'Medium'])
    const level = control<HTMLSelectElement>(form.element, 'level')
    level.value = '1'
    expect(form.read()).toEqual({ size: 'm', level: 2 })
  })

  it('turns a multi-select enum into checkboxes and enforces minItems', () => {
    const form = mount({
      type: 'object',
      properties: { tags: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }, { const: 'b', title: 'B' }] }, minItems: 1 } },
    })
    const boxes = form.element.querySelectorAll<HTMLInputElement>('input[type=checkbox]')
    expect(boxes).toHaveLength(2)
    expect(() => form.read()).toThrow('Choose at least 1')
    boxes[1]!.click()
    expect(form.read()).toEqual({ tags: ['b'] })
  })

  it('reads arrays of primitives one item per line, and checks each item', () => {
    const form = mount({ type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } })
    const area = control<HTMLTextAreaElement>(form.element, 'ids')
    area.value = '1\n\n22\n'
    expect(form.read()).toEqual({ ids: [1, 22] })
    area.value = '1\nx'
    expect(() => form.read()).toThrow('“x” is not a whole number')
  })

  it('falls back to raw JSON for nested objects and for a schema it cannot draw', () => {
    const form = mount({ type: 'object', properties: { filter: { type: 'object', properties: { q: { type: 'string' } } } } })
    const area = control<HTMLTextAreaElement>(form.element, 'filter')
    area.value = '{"q": "x"}'
    expect(form.read()).toEqual({ filter: { q: 'x' } })
    area.value = '{nope'
    expect(() => form.read()).toThrow(/not valid JSON/)

    const whole = mount({ oneOf: [{ type: 'object' }] })
    control<HTMLTextAreaElement>(whole.element, 'arguments').value = '[1]'
    expect(() => whole.read()).toThrow('Arguments must be a JSON object.')
    control<HTMLTextAreaElement>(whole.element, 'arguments').value = '{"a": 1}'
    expect(whole.read()).toEqual({ a: 1 })
  })

  it('treats titles and descriptions as text', () => {
    const form = mount({
      type: 'object',
      properties: { x: { type: 'string', title: '<img src=x onerror="window.__xss=1">', description: '<b>bold</b>' } },
    })
    expect(form.element.querySelector('img, b')).toBeNull()
    expect(form.element.textContent).toContain('<img src=x')
  })
})
