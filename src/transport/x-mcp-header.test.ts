import { describe, expect, it } from 'vitest'
import { readParamHeaders } from './x-mcp-header'

const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra })

describe('readParamHeaders: valid annotations', () => {
  it('finds none in a schema without annotations', () => {
    expect(readParamHeaders(schema({ a: { type: 'string' } }))).toEqual([])
    expect(readParamHeaders(undefined)).toEqual([])
  })

  it('reads string, integer and boolean properties with their paths', () => {
    expect(
      readParamHeaders(
        schema({
          region: { type: 'string', 'x-mcp-header': 'Region' },
          priority: { type: 'integer', 'x-mcp-header': 'Priority' },
          verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
          query: { type: 'string' },
        }),
      ),
    ).toEqual([
      { name: 'Region', path: ['region'] },
      { name: 'Priority', path: ['priority'] },
      { name: 'Verbose', path: ['verbose'] },
    ])
  })

  it('follows nested properties (purely through "properties")', () => {
    const nested = schema({ target: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } } })
    expect(readParamHeaders(nested)).toEqual([{ name: 'Zone', path: ['target', 'zone'] }])
  })

  it('accepts every RFC 9110 token character', () => {
    const name = "Az09!#$%&'*+-.^_`|~"
    expect(readParamHeaders(schema({ a: { type: 'string', 'x-mcp-header': name } }))).toEqual([{ name, path: ['a'] }])
  })

  it('treats annotation-shaped data in const/default/enum/examples as data', () => {
    const s = schema({ a: { type: 'object', default: { 'x-mcp-header': 'Nope' }, examples: [{ 'x-mcp-header': '' }] } })
    expect(readParamHeaders(s)).toEqual([])
  })

  it('accepts a property that is itself named x-mcp-header', () => {
    expect(readParamHeaders(schema({ 'x-mcp-header': { type: 'string' } }))).toEqual([])
  })
})

describe('readParamHeaders: invalid annotations make the tool invalid', () => {
  // The conformance scenario http-invalid-tool-headers serves exactly these.
  it.each([
    ['empty', { value: { type: 'string', 'x-mcp-header': '' } }, /empty/],
    ['not a string', { value: { type: 'string', 'x-mcp-header': 7 } }, /empty or not a string/],
    ['on an object', { data: { type: 'object', 'x-mcp-header': 'Data' } }, /only string, integer and boolean/],
    ['on an array', { items: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } }, /only string/],
    ['on null', { nil: { type: 'null', 'x-mcp-header': 'Nil' } }, /only string/],
    ['on number', { score: { type: 'number', 'x-mcp-header': 'Score' } }, /only string/],
    ['on a property without a type', { any: { 'x-mcp-header': 'Any' } }, /only string/],
    ['on a type list', { any: { type: ['string', 'null'], 'x-mcp-header': 'Any' } }, /only string/],
    ['a space', { value: { type: 'string', 'x-mcp-header': 'My Region' } }, /characters/],
    ['a colon', { value: { type: 'string', 'x-mcp-header': 'Region:Primary' } }, /characters/],
    ['non-ASCII', { value: { type: 'string', 'x-mcp-header': 'Région' } }, /characters/],
    ['a control character', { value: { type: 'string', 'x-mcp-header': 'Region\t1' } }, /characters/],
    [
      'a duplicate, same case',
      { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'Region' } },
      /twice/,
    ],
    [
      'a duplicate, other case',
      { a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } },
      /twice/,
    ],
  ])('%s', (_name, properties, reason) => {
    expect(readParamHeaders(schema(properties))).toMatch(reason)
  })

  it.each([
    ['the root itself', { type: 'object', 'x-mcp-header': 'Root' }],
    ['array items', schema({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } })],
    ['anyOf', schema({ a: { anyOf: [{ type: 'string', 'x-mcp-header': 'A' }] } })],
    ['oneOf', schema({}, { oneOf: [schema({ a: { type: 'string', 'x-mcp-header': 'A' } })] })],
    ['allOf', schema({}, { allOf: [schema({ a: { type: 'string', 'x-mcp-header': 'A' } })] })],
    ['not', schema({ a: { type: 'string', not: { 'x-mcp-header': 'A' } } })],
    // oxlint-disable-next-line unicorn/no-thenable -- `then` is the JSON Schema keyword under test
    ['if/then/else', schema({}, { if: schema({}), then: schema({ a: { type: 'string', 'x-mcp-header': 'A' } }) })],
    ['$defs (reached by $ref)', schema({ a: { $ref: '#/$defs/a' } }, { $defs: { a: { type: 'string', 'x-mcp-header': 'A' } } })],
    ['additionalProperties', schema({}, { additionalProperties: { type: 'string', 'x-mcp-header': 'A' } })],
    ['properties under items', schema({ list: { type: 'array', items: schema({ b: { type: 'string', 'x-mcp-header': 'B' } }) } })],
  ])('an annotation reached through %s', (_name, s) => {
    expect(readParamHeaders(s)).toMatch(/only properties reached through "properties"/)
  })
})
