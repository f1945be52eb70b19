// Form controls generated from a JSON Schema object (a tool's inputSchema, an elicitation's requestedSchema).
// Primitive fields, enums and arrays of those get real controls; anything richer falls back to raw JSON.
import { h, isRecord, uid } from './dom'

type Schema = Record<string, unknown>
interface Option {
  value: string | number | boolean
  label: string
}
interface Field {
  element: HTMLElement
  /** `undefined` = leave the key out. Throws a message for the user when the input cannot be used. */
  read(): unknown
}

export interface SchemaForm {
  element: HTMLElement
  /** The values as an arguments object; throws `FormInputError` naming the field at fault. */
  read(): Record<string, unknown>
}

export class FormInputError extends Error {}

export function schemaForm(schema: unknown): SchemaForm {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : undefined
  if (!properties) {
    // No flat property list to draw (e.g. a top-level oneOf): the whole object is typed as JSON.
    const whole = isRecord(schema) && schema.type === 'object' && !schema.oneOf && !schema.anyOf
    if (whole) return { element: h('p', { class: 'hint' }, 'No arguments.'), read: () => ({}) }
    const field = jsonField('arguments', 'Arguments (JSON object)', isRecord(schema) ? schema : {}, true)
    return {
      element: field.element,
      read: () => {
        const value = field.read()
        if (!isRecord(value)) throw new FormInputError('Arguments must be a JSON object.')
        return value
      },
    }
  }
  const required = new Set(isRecord(schema) && Array.isArray(schema.required) ? schema.required : [])
  const fields = Object.entries(properties).map(([name, prop]) => {
    const field = fieldFor(name, isRecord(prop) ? prop : {}, required.has(name))
    return { name, field }
  })
  return {
    element: h('div', { class: 'fields' }, fields.map(({ field }) => field.element)),
    read() {
      const out: Record<string, unknown> = {}
      for (const { name, field } of fields) {
        const value = field.read()
        if (value !== undefined) out[name] = value
      }
      return out
    },
  }
}

function fieldFor(name: string, prop: Schema, required: boolean): Field {
  const label = typeof prop.title === 'string' && prop.title ? prop.title : name
  const options = enumOptions(prop)
  if (options) return selectField(name, label, prop, options, required)
  const type = typeOf(prop)
  if (type === 'boolean') return booleanField(name, label, prop, required)
  if (type === 'string' || type === 'number' || type === 'integer') return inputField(name, label, prop, type, required)
  if (type === 'array' && isRecord(prop.items)) {
    const itemOptions = enumOptions(prop.items)
    if (itemOptions) return multiSelectField(name, label, prop, itemOptions, required)
    const itemType = typeOf(prop.items)
    if (itemType === 'string' || itemType === 'number' || itemType === 'integer' || itemType === 'boolean') {
      return linesField(name, label, prop, itemType, required)
    }
  }
  return jsonField(name, label, prop, required)
}

function typeOf(prop: Schema): string | undefined {
  if (typeof prop.type === 'string') return prop.type
  // ["string", "null"] reads as an optional string.
  if (Array.isArray(prop.type)) return prop.type.find((t): t is string => typeof t === 'string' && t !== 'null')
  return undefined
}

/** `enum`, `oneOf`/`anyOf` of `{const, title}`, and the legacy `enumNames`. */
function enumOptions(prop: Schema): Option[] | undefined {
  const isPrimitive = (v: unknown): v is Option['value'] => ['string', 'number', 'boolean'].includes(typeof v)
  if (Array.isArray(prop.enum) && prop.enum.length && prop.enum.every(isPrimitive)) {
    const names = Array.isArray(prop.enumNames) ? prop.enumNames : []
    return prop.enum.map((value, i) => ({ value, label: typeof names[i] === 'string' ? names[i] : String(value) }))
  }
  const list = Array.isArray(prop.oneOf) ? prop.oneOf : Array.isArray(prop.anyOf) ? prop.anyOf : undefined
  if (list?.length && list.every((o) => isRecord(o) && isPrimitive(o.const))) {
    return (list as Schema[]).map((o) => ({
      value: o.const as Option['value'],
      label: typeof o.title === 'string' ? o.title : String(o.const),
    }))
  }
  return undefined
}

/** Label, control and description wired together (`for`, `aria-describedby`). */
function wrap(id: string, label: string, prop: Schema, required: boolean, control: HTMLElement, kind = 'field') {
  const description = typeof prop.description === 'string' ? prop.description : ''
  const hintId = description ? `${id}-hint` : undefined
  if (hintId) control.setAttribute('aria-describedby', hintId)
  return h(
    'div',
    { class: kind },
    h('label', { for: id }, label, required && h('span', { class: 'req', 'aria-hidden': 'true' }, ' *')),
    control,
    hintId && h('small', { id: hintId, class: 'hint' }, description),
  )
}

function missing(label: string, required: boolean): undefined {
  if (required) throw new FormInputError(`“${label}” is required.`)
  return undefined
}

function inputField(name: string, label: string, prop: Schema, type: string, required: boolean): Field {
  const id = uid(name)
  const formats: Record<string, string> = { email: 'email', uri: 'url', date: 'date' }
  const numeric = type !== 'string'
  const input = h('input', {
    id,
    name,
    type: numeric ? 'number' : (formats[String(prop.format)] ?? 'text'),
    step: type === 'integer' ? 1 : numeric ? 'any' : undefined,
    min: typeof prop.minimum === 'number' ? prop.minimum : undefined,
    max: typeof prop.maximum === 'number' ? prop.maximum : undefined,
    minlength: typeof prop.minLength === 'number' ? prop.minLength : undefined,
    maxlength: typeof prop.maxLength === 'number' ? prop.maxLength : undefined,
    required,
  })
  if (prop.default !== undefined && prop.default !== null) input.value = String(prop.default)
  return {
    element: wrap(id, label, prop, required, input),
    read() {
      if (input.value === '') return missing(label, required)
      if (!numeric) return input.value
      const n = Number(input.value)
      if (!Number.isFinite(n)) throw new FormInputError(`“${label}” must be a number.`)
      if (type === 'integer' && !Number.isInteger(n)) throw new FormInputError(`“${label}” must be a whole number.`)
      return n
    },
  }
}

function booleanField(name: string, label: string, prop: Schema, required: boolean): Field {
  const id = uid(name)
  const input = h('input', { id, name, type: 'checkbox' })
  input.checked = prop.default === true
  // An optional flag the user never touched stays out of the arguments, so the server's own default applies.
  let touched = false
  input.addEventListener('change', () => (touched = true))
  return {
    element: wrap(id, label, prop, required, input, 'field check'),
    read: () => (required || touched || prop.default !== undefined ? input.checked : undefined),
  }
}

function selectField(name: string, label: string, prop: Schema, options: Option[], required: boolean): Field {
  const id = uid(name)
  const select = h(
    'select',
    { id, name, required },
    h('option', { value: '' }, required ? 'Choose…' : '(none)'),
    options.map((o, i) => h('option', { value: i }, o.label)),
  )
  const preset = options.findIndex((o) => o.value === prop.default)
  if (preset >= 0) select.value = String(preset)
  return {
    element: wrap(id, label, prop, required, select),
    read: () => (select.value === '' ? missing(label, required) : options[Number(select.value)]?.value),
  }
}

function multiSelectField(name: string, label: string, prop: Schema, options: Option[], required: boolean): Field {
  const preset = Array.isArray(prop.default) ? prop.default : []
  const boxes = options.map((o) => {
    const id = uid(name)
    const box = h('input', { id, type: 'checkbox', name })
    box.checked = preset.includes(o.value)
    return { box, row: h('div', { class: 'check' }, box, h('label', { for: id }, o.label)) }
  })
  const description = typeof prop.description === 'string' ? prop.description : ''
  return {
    element: h(
      'fieldset',
      { class: 'field' },
      h('legend', {}, label, required && h('span', { class: 'req', 'aria-hidden': 'true' }, ' *')),
      boxes.map((b) => b.row),
      description && h('small', { class: 'hint' }, description),
    ),
    read() {
      const chosen = options.filter((_, i) => boxes[i]?.box.checked).map((o) => o.value)
      if (typeof prop.minItems === 'number' && chosen.length < prop.minItems) {
        throw new FormInputError(`Choose at least ${prop.minItems} for “${label}”.`)
      }
      if (typeof prop.maxItems === 'number' && chosen.length > prop.maxItems) {
        throw new FormInputError(`Choose at most ${prop.maxItems} for “${label}”.`)
      }
      return chosen.length ? chosen : required ? chosen : undefined
    },
  }
}

function linesField(name: string, label: string, prop: Schema, itemType: string, required: boolean): Field {
  const id = uid(name)
  const area = h('textarea', { id, name, rows: 3, required, placeholder: 'one item per line' })
  if (Array.isArray(prop.default)) area.value = prop.default.join('\n')
  return {
    element: wrap(id, `${label} (one per line)`, prop, required, area),
    read() {
      const lines = area.value.split('\n').filter((line) => line.trim() !== '')
      if (!lines.length) return missing(label, required)
      return lines.map((line) => {
        if (itemType === 'string') return line
        if (itemType === 'boolean') {
          if (line.trim() === 'true' || line.trim() === 'false') return line.trim() === 'true'
          throw new FormInputError(`“${label}”: “${line}” is not true or false.`)
        }
        const n = Number(line)
        if (!Number.isFinite(n) || (itemType === 'integer' && !Number.isInteger(n))) {
          throw new FormInputError(`“${label}”: “${line}” is not ${itemType === 'integer' ? 'a whole number' : 'a number'}.`)
        }
        return n
      })
    },
  }
}

function jsonField(name: string, label: string, prop: Schema, required: boolean): Field {
  const id = uid(name)
  const area = h('textarea', { id, name, rows: 4, class: 'mono', required, spellcheck: 'false' })
  if (prop.default !== undefined) area.value = JSON.stringify(prop.default, null, 2)
  return {
    element: wrap(id, `${label} (JSON)`, prop, required, area),
    read() {
      if (area.value.trim() === '') return missing(label, required)
      try {
        return JSON.parse(area.value) as unknown
      } catch (error) {
        throw new FormInputError(`“${label}” is not valid JSON: ${(error as Error).message}`)
      }
    },
  }
}
