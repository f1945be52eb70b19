import { describe, expect, it } from 'vitest'
import { encodeHeaderValue } from './header-value'
import { argumentHeaderValue } from './x-mcp-header'

// Independent of the code under test: Node's Buffer does the Base64.
const sentinel = (value: string) => `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`

describe('encodeHeaderValue: the spec table (SEP-2243)', () => {
  it.each([
    ['plain ASCII stays as is', 'us-west1', 'us-west1'],
    ['internal spaces stay as is', 'us west 1', 'us west 1'],
    ['an empty string is an empty header', '', ''],
    ['non-ASCII is Base64 of UTF-8', 'Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    ['leading and trailing spaces', ' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['a newline', 'line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['ASCII that looks like a sentinel', '=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ])('%s', (_name, input, expected) => {
    expect(encodeHeaderValue(input)).toBe(expected)
  })

  it.each([
    ['a leading space', ' us-west1'],
    ['a trailing space', 'us-west1 '],
    ['a leading tab', '\tindented'],
    ['a trailing tab', 'tabbed\t'],
    ['an inner tab (a control character)', 'a\tb'],
    ['CR LF', 'line1\r\nline2'],
    ['NUL', 'a\u0000b'],
    ['0x1F', 'a\u001fb'],
    ['DEL (0x7F)', 'a\u007fb'],
    ['U+0080, the first non-ASCII', 'a\u0080b'],
    ['an emoji (a surrogate pair)', 'rocket 🚀'],
    ['a non-breaking space at the end', 'x\u00a0'],
    ['the shortest sentinel look-alike', '=?base64??='],
  ])('Base64 for %s', (_name, input) => {
    expect(encodeHeaderValue(input)).toBe(sentinel(input))
  })

  it.each([
    ['every printable ASCII character', Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('').trim()],
    ['a sentinel prefix without its suffix', '=?base64?SGVsbG8='],
    ['a sentinel suffix without its prefix', 'SGVsbG8=?='],
    ['a colon and quotes', 'key: "value"'],
  ])('no Base64 for %s', (_name, input) => {
    expect(encodeHeaderValue(input)).toBe(input)
  })

  it('gives values fetch accepts as header values', () => {
    for (const input of ['Hello, 世界', 'line1\r\nline2', ' x ', '\u0000']) {
      expect(() => new Headers({ 'Mcp-Param-X': encodeHeaderValue(input) })).not.toThrow()
    }
  })
})

describe('argumentHeaderValue', () => {
  it.each([
    ['a string', 'eu-west', 'eu-west'],
    ['an encoded string', 'Zürich', sentinel('Zürich')],
    ['an integer in decimal', 42, '42'],
    ['a negative integer', -7, '-7'],
    ['zero', 0, '0'],
    ['the largest safe integer', Number.MAX_SAFE_INTEGER, '9007199254740991'],
    ['true', true, 'true'],
    ['false', false, 'false'],
    ['an empty string', '', ''],
  ])('%s', (_name, input, expected) => {
    expect(argumentHeaderValue(input)).toBe(expected)
  })

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['an object', { a: 1 }],
    ['an array', ['a']],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('omits %s', (_name, input) => {
    expect(argumentHeaderValue(input)).toBeUndefined()
  })
})
