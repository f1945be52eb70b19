import { describe, expect, it } from 'vitest'
import { expandTemplate, templateVariables } from './uri-template'

describe('resource templates', () => {
  it('lists the variables once, without modifiers', () => {
    expect(templateVariables('nanomcp://notes/{id}')).toEqual(['id'])
    expect(templateVariables('x://{+path}/{name:3}{?q,page}{&id*}{id}')).toEqual(['path', 'name', 'q', 'page', 'id'])
  })

  it('expands the common operators and encodes values', () => {
    expect(expandTemplate('nanomcp://notes/{id}', { id: 'a b/c' })).toBe('nanomcp://notes/a%20b%2Fc')
    expect(expandTemplate('file:///{+path}', { path: 'docs/read me.md' })).toBe('file:///docs/read%20me.md')
    expect(expandTemplate('x://s{?q,page}', { q: 'm&m', page: '2' })).toBe('x://s?q=m%26m&page=2')
    expect(expandTemplate('x://s{?q,page}', { page: '2' })).toBe('x://s?page=2')
    expect(expandTemplate('x://a{/b,c}', { b: '1', c: '2' })).toBe('x://a/1/2')
    expect(expandTemplate('x://a{#f}', { f: 'top' })).toBe('x://a#top')
    expect(expandTemplate('x://a/{missing}', {})).toBe('x://a/')
  })
})
