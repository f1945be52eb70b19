import { describe, expect, it } from 'vitest'
import { buildCsp, grantedPermissions, permissiveCsp } from './csp'
import { AppResourceError } from '../errors/app-resource-error'

const directives = (policy: string) => Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]))

describe('buildCsp', () => {
  it('defaults to the strict policy: nothing undeclared reachable, no eval, no blob, no workers', () => {
    const d = directives(buildCsp())
    expect(d['default-src']).toBe("'none'")
    expect(d['script-src']).toBe("'self' 'unsafe-inline'")
    expect(d['style-src']).toBe("'self' 'unsafe-inline'")
    expect(d['img-src']).toBe("'self' data:")
    expect(d['media-src']).toBe("'self' data:")
    expect(d['connect-src']).toBe("'none'")
    expect(d['frame-src']).toBe("'none'")
    expect(d['worker-src']).toBe("'none'")
    expect(d['object-src']).toBe("'none'")
    expect(d['base-uri']).toBe("'self'")
    expect(buildCsp()).not.toContain('unsafe-eval')
    expect(buildCsp()).not.toContain('blob:')
  })

  it('maps each declared list to its directives', () => {
    const d = directives(
      buildCsp({
        connectDomains: ['https://api.example.com', 'wss://live.example.com'],
        resourceDomains: ['https://*.cdn.example'],
        frameDomains: ['https://embed.example:8443'],
        baseUriDomains: ['https://base.example/path/'],
      }),
    )
    expect(d['connect-src']).toBe("'self' https://api.example.com wss://live.example.com")
    for (const k of ['script-src', 'style-src', 'img-src', 'font-src', 'media-src']) expect(d[k]).toContain('https://*.cdn.example')
    expect(d['frame-src']).toBe('https://embed.example:8443')
    expect(d['base-uri']).toBe('https://base.example/path/')
  })

  it.each([
    ['a semicolon', 'https://a.example; script-src *'],
    ['a quote', "https://a.example'"],
    ['a double quote', 'https://a.example"'],
    ['whitespace', 'https://a.example https://b.example'],
    ['a newline', 'https://a.example\nscript-src *'],
    ["'unsafe-eval' as a domain", "'unsafe-eval'"],
    ['a bare wildcard', '*'],
    ['a scheme-only source', 'data:'],
    ['a comma', 'https://a.example,https://b.example'],
    ['a non-string', 42],
  ])('refuses %s', (_, value) => {
    for (const key of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains']) {
      const call = () => buildCsp({ [key]: [value] } as never)
      expect(call).toThrow(AppResourceError)
      try {
        call()
      } catch (error) {
        expect((error as AppResourceError).problem).toBe('csp')
        expect((error as Error).message).toContain(key)
      }
    }
  })

  it('refuses a list that is not a list', () => {
    expect(() => buildCsp({ connectDomains: 'https://a.example' as never })).toThrow(/must be a list/)
  })

  it('permissiveCsp opens eval, blob:/data: and workers, and still only the declared domains', () => {
    const grant = permissiveCsp({ connectDomains: ['https://api.example.com'] })
    const d = directives(buildCsp(grant))
    expect(d['script-src']).toBe("'self' 'unsafe-inline' 'unsafe-eval' blob: data:")
    expect(d['worker-src']).toBe("'self' blob:")
    expect(d['connect-src']).toBe("'self' https://api.example.com")
    expect(d['frame-src']).toBe("'none'")
    expect(() => buildCsp(permissiveCsp({ connectDomains: ['x; y'] }))).toThrow(AppResourceError)
  })
})

describe('grantedPermissions', () => {
  it('grants nothing by default', () => {
    expect(grantedPermissions(undefined)).toEqual({ permissions: {}, allow: '' })
  })
  it('maps only the four known permissions to the allow attribute', () => {
    const granted = grantedPermissions({ camera: {}, clipboardWrite: {}, usb: {} } as never)
    expect(granted.permissions).toEqual({ camera: {}, clipboardWrite: {} })
    expect(granted.allow).toBe('camera; clipboard-write')
  })
})
