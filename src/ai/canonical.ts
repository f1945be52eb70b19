import { isObject } from '../transport/json-rpc'

/**
 * JSON with object keys sorted at every depth, so two equal values give the same text whatever order their
 * keys were written in (servers re-serialise their definitions freely).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isObject(item) ? Object.fromEntries(Object.keys(item).sort().map((key) => [key, item[key]])) : item,
  )
}
