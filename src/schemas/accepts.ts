// A quick yes for values a zod schema accepts, read from the schema itself, so zod stays the single source of
// truth. zod/mini parses by building a copy of every object it checks (and runs the loose objects' catchall on
// each unknown key): for a 10,000-tool list that copy was most of the client's cost. This walks the value
// instead, without copying, and without eval (zod's own compiler needs `new Function`, which a strict CSP bans).
//
// It is one-sided: `accepts(schema)(value)` true means zod accepts the value; false only means "ask zod", which
// then gives the verdict and the error. So whatever it does not model exactly (formats, lengths, transforms,
// defaults, records, superRefine, strict objects) answers false and costs a zod parse.
import type * as z from 'zod/mini'

type Test = (value: unknown) => boolean
type Def = Record<string, any>

const cache = new WeakMap<object, Test>()
const no: Test = () => false

/** The quick test of `schema`, built once per schema. */
export function accepts(schema: z.ZodMiniType): Test {
  let test = cache.get(schema)
  if (!test) {
    // A schema that contains itself (through a getter) meets its own test while that is being built.
    cache.set(schema, (value) => test!(value))
    cache.set(schema, (test = build(schema._zod.def as Def)))
  }
  return test
}

function build(def: Def): Test {
  const { type, shape, catchall } = def
  // A format schema (z.int(), z.email(), z.url(), …) is a check itself: its def carries `check`, not `checks`.
  if (def.check && type !== 'custom') return no
  // Refinements (`z.refine`, and z.custom, which is its own); any other check kind (lengths, formats) is zod's.
  const refines: Def[] = (def.checks ?? []).map((check: z.ZodMiniType) => check._zod.def)
  if (type === 'custom') refines.push(def)
  // A stripping object (no catchall) hands its refinements a copy without the unknown keys. (Coercion needs no
  // case: each type test below passes only values that coercion leaves as they are.)
  if (refines.some((r) => r.check !== 'custom' || !r.fn) || (shape && !catchall && refines.length)) return no
  let base: Test = () => true
  if (type === 'string' || type === 'boolean') base = (value) => typeof value === type
  else if (type === 'number') base = Number.isFinite
  else if (type === 'literal') {
    const values: unknown[] = def.values
    const [only] = values
    // A single value (a notification's method, a result's resultType) is compared as it is; NaN, which === never
    // matches, stays with includes().
    base = values.length === 1 && only === only ? (value) => value === only : (value) => values.includes(value)
  }
  // `undefined` itself is left to zod: exactOptional shares this type and refuses it.
  else if (type === 'optional') base = accepts(def.innerType)
  else if (type === 'array') {
    const item = accepts(def.element)
    // findIndex, not every: it visits holes too, which zod checks as undefined.
    base = (value) => Array.isArray(value) && value.findIndex((v) => !item(v)) < 0
  } else if (type === 'union' && def.inclusive !== false) {
    // (z.xor, `inclusive: false`, wants exactly one option to fit.)
    const options: Test[] = def.options.map(accepts)
    // Loops rather than some() here and below: a callback made per value cost more than the test it ran.
    base = (value) => {
      for (const test of options) if (test(value)) return true
      return false
    }
  } else if (type === 'object') {
    // [key, its test, whether zod lets it be absent (zod's handlePropertyResult: optional in and out)]
    // Parallel arrays and an indexed loop: every item of a 10,000-tool list passes here, and a callback per field
    // (every() over [key, test, absent] tuples) cost a fifth more (2.9 against 2.4 ms per 10,000 tools).
    const keys = Object.keys(shape)
    const tests = keys.map((key) => accepts(shape[key]))
    const absent = keys.map((key) => shape[key]._zod.optin && shape[key]._zod.optout === 'optional')
    const rest = catchall?._zod.def.type !== 'unknown' && catchall && accepts(catchall)
    base = (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
      const object = value as Def
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!
        const field = object[key]
        // One lookup for a field that is there; `in` only tells a missing one from one set to undefined.
        if (field === undefined && !(key in object) ? !absent[i] : !tests[i]!(field)) return false
      }
      // An own `__proto__` key is checked too, where zod skips it: a "no" only costs a zod parse.
      if (rest) for (const key in object) if (!Object.hasOwn(shape, key) && !rest(object[key])) return false
      return true
    }
  } else if (type !== 'unknown' && type !== 'any' && type !== 'custom') return no
  // A refinement passes on `true` alone (a promise would make zod's synchronous parse throw).
  if (!refines.length) return base
  return (value) => {
    if (!base(value)) return false
    for (const r of refines) if (r.fn(value) !== true) return false
    return true
  }
}
