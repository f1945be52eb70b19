// Every limit an option sets goes to setTimeout in the end, which fires at once for a delay above 2^31-1 ms (about
// 24.8 days) instead of waiting that long: such a value, or a negative one or NaN, is a mistake to report at the
// call rather than an instant TimeoutError later.

/** The longest delay setTimeout honours. */
export const MAX_DELAY_MS = 2 ** 31 - 1

/** A limit in ms as options take it: `false` or `Infinity` mean none. */
export type Limit = number | false

/**
 * `value` as a number of ms (`Infinity` for no limit), `fallback` when it is undefined. A RangeError naming `option`
 * when it is negative, NaN, not a number, or finite and above MAX_DELAY_MS.
 */
export function duration(option: string, value: Limit | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (value === false || value === Infinity) return Infinity
  if (typeof value !== 'number' || !(value >= 0 && value <= MAX_DELAY_MS)) {
    throw new RangeError(`${option} must be a number of ms from 0 to ${MAX_DELAY_MS}, or Infinity or false for no limit (got ${String(value)})`)
  }
  return value
}
