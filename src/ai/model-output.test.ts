import { describe, expect, it } from 'vitest'
import type { CallToolResult } from '../schemas/types'
import { PNG, WAV } from '../testing/ai-tools-server'
import { toModelOutput as convert } from './model-output'

const toModelOutput = (r: CallToolResult) => convert(r) as { type: string; value: unknown }

const result = (content: unknown[], extra: Partial<CallToolResult> = {}) => ({ content, ...extra }) as CallToolResult

describe('toModelOutput (AI SDK v7 content output)', () => {
  it('maps every MCP content type', () => {
    const out = toModelOutput(
      result([
        { type: 'text', text: 'hello' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'audio', data: WAV, mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'embedded' } },
        { type: 'resource', resource: { uri: 'file:///r/report.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
        { type: 'resource', resource: { uri: 'file:///b.json', mimeType: 'application/json', blob: btoa('{"k":1}') } },
        { type: 'resource_link', uri: 'file:///big.csv', name: 'big.csv', mimeType: 'text/csv', description: 'A table' },
      ]),
    )
    expect(out).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'hello' },
        { type: 'file', data: { type: 'data', data: PNG }, mediaType: 'image/png' },
        { type: 'file', data: { type: 'data', data: WAV }, mediaType: 'audio/wav' },
        { type: 'text', text: 'embedded' },
        { type: 'file', data: { type: 'data', data: 'JVBERi0=' }, mediaType: 'application/pdf', filename: 'report.pdf' },
        { type: 'text', text: '{"k":1}' },
        { type: 'text', text: 'Resource link: big.csv <file:///big.csv> (text/csv, A table)' },
      ],
    })
  })

  it('adds structuredContent as JSON text only when no text block carries it', () => {
    expect(toModelOutput(result([{ type: 'text', text: 'Done.' }], { structuredContent: { sum: 5 } })).value).toEqual([
      { type: 'text', text: 'Done.' },
      { type: 'text', text: '{"sum":5}' },
    ])
    expect(toModelOutput(result([{ type: 'text', text: '{ "sum": 5 }' }], { structuredContent: { sum: 5 } })).value).toEqual([{ type: 'text', text: '{ "sum": 5 }' }])
  })

  it('isError becomes error-text', () => {
    expect(toModelOutput(result([{ type: 'text', text: 'disk full' }], { isError: true }))).toEqual({ type: 'error-text', value: 'disk full' })
    expect(toModelOutput(result([], { isError: true })).type).toBe('error-text')
  })
})
