// A few lines of shape checking instead of zod/mini. Why not the library: zod/mini measured 5.2 KB min+gzip
// of a 17.4 KB Client + StreamableHttpTransport bundle, which alone put the 16 KB budget out of reach; these
// checks cover the same ground (loose objects, optional fields, arrays, primitives) in a few hundred bytes.

import { ProtocolError } from '../errors/protocol-error'
import { isObject } from '../transport/json-rpc'

/** Returns what is wrong with a value (a path and an expectation), or undefined when it fits. */
export type Check = (value: unknown, path: string) => string | undefined

/** A check that promises what a value that passes it looks like. */
export type Shape<T> = Check & { readonly type?: T }

const is =
  (type: string): Check =>
  (value, path) =>
    typeof value === type ? undefined : `${path}: expected ${type}`

export const string = is('string')
export const number = is('number')
export const boolean = is('boolean')


/** An object with at least these fields; other fields pass through untouched (servers may add their own). */
export const object =
  (fields: Record<string, Check> = {}): Check =>
  (value, path) => {
    if (!isObject(value)) return `${path}: expected object`
    for (const [key, check] of Object.entries(fields)) {
      const issue = check(value[key], `${path}.${key}`)
      if (issue) return issue
    }
  }

export const array =
  (item?: Check): Check =>
  (value, path) =>
    Array.isArray(value) ? (item ? value.map((v, i) => item(v, `${path}[${i}]`)).find(Boolean) : undefined) : `${path}: expected array`

export const optional =
  (check: Check): Check =>
  (value, path) =>
    value === undefined ? undefined : check(value, path)

/** Whether a value fits a shape (the bare check, for answers that may rightly be something else). */
export const fits = (check: Check, value: unknown): boolean => !check(value, 'result')

/** The value, typed, when it fits; else a ProtocolError "Malformed <what>" with the issue as its detail. */
export function parse<T>(check: Shape<T>, value: unknown, what: string): T {
  const issue = check(value, 'result')
  if (issue) throw new ProtocolError('invalid-result', `Malformed ${what}`, [issue])
  return value as T
}
