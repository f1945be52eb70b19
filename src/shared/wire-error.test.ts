import { describe, expect, it } from 'vitest'
import { CodeLoadError } from '../errors/code-load-error'
import { HttpError } from '../errors/http-error'
import { McpError } from '../errors/mcp-error'
import { RpcError } from '../errors/rpc-error'
import { SharedError } from './shared-error'
import { decodeError, decodeValue, encodeError, encodeValue } from './wire-error'

// What a MessagePort does to a message: structured clone, which keeps neither classes nor extra fields of errors.
const cross = <T>(value: T): T => structuredClone(value)

describe('errors crossing a port', () => {
  it('come back as their own class with their fields', () => {
    const error = decodeError(cross(encodeError(new RpcError(-32602, 'bad arguments', { field: 'text' }))))
    expect(error).toBeInstanceOf(RpcError)
    expect(error).toBeInstanceOf(McpError)
    expect(error).toMatchObject({ name: 'RpcError', code: -32602, data: { field: 'text' }, message: 'bad arguments (-32602)' })
  })

  it('keep a CodeLoadError apart from a NetworkError: the worker could not fetch its own code', () => {
    const error = decodeError(cross(encodeError(new CodeLoadError('HTTP+SSE transport', new TypeError('Failed to fetch dynamically imported module')))))
    expect(error).toBeInstanceOf(CodeLoadError)
    expect(error).toMatchObject({ name: 'CodeLoadError', part: 'HTTP+SSE transport' })
  })

  it('keep the reason of a SharedError', () => {
    const error = decodeError(cross(encodeError(new SharedError('host-lost', 'gone'))))
    expect(error).toBeInstanceOf(SharedError)
    expect((error as SharedError).reason).toBe('host-lost')
  })

  it('leave out a field that cannot be cloned rather than failing the reply', () => {
    // Headers objects cannot be structured-cloned; the status and body still travel.
    const decoded = decodeError(cross(encodeError(new HttpError(500, new Headers({ 'x-a': 'b' }), 'oops'))))
    expect(decoded).toBeInstanceOf(HttpError)
    expect(decoded).toMatchObject({ status: 500, body: 'oops' })
    expect(decoded).not.toHaveProperty('headers')
  })

  it('from another library keep their name under McpError, plain values become Error', () => {
    const foreign = Object.assign(new Error('nope'), { name: 'OAuthError', code: 'invalid_grant' })
    expect(decodeError(cross(encodeError(foreign)))).toMatchObject({ name: 'OAuthError', code: 'invalid_grant' })
    expect(decodeError(cross(encodeError(foreign)))).toBeInstanceOf(McpError)
    expect(decodeError(cross(encodeError('text')))).toMatchObject({ name: 'Error', message: 'text' })
  })
})

describe('atom values crossing a port', () => {
  it('carry their error as an error of its class', () => {
    const value = decodeValue(cross(encodeValue({ status: 'error', error: new RpcError(-32601, 'no such method') }))) as { error: Error }
    expect(value.error).toBeInstanceOf(RpcError)
  })

  it('without an error pass unchanged', () => {
    const state = { items: [{ name: 'echo' }], loading: false, error: undefined, stale: false, updatedAt: 1 }
    expect(encodeValue(state)).toBe(state)
    expect(decodeValue(cross(state))).toEqual(state)
  })
})
