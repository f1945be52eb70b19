import { describe, expect, it } from 'vitest'
import type { CallToolResult, Tool } from '../schemas/types'
import { PNG, WAV } from '../testing/ai-tools-server'
import { AiToolError } from './ai-tool-error'
import { anthropicToolResult, anthropicTools } from './anthropic'
import { mcpToolName } from './names'
import { openaiToolResult, openaiTools } from './openai'

const tools = [
  { name: 'files.read', description: 'Reads', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'ping', inputSchema: { type: 'object' } },
  { name: 'view_only', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] } } },
  { name: 'bad', inputSchema: { type: 'array' } },
] as Tool[]
const media = { content: [{ type: 'text', text: 'look' }, { type: 'image', data: PNG, mimeType: 'image/png' }, { type: 'audio', data: WAV, mimeType: 'audio/wav' }] } as CallToolResult

describe('openaiTools / anthropicTools', () => {
  it('chat and responses definitions: sanitised names, schemas unchanged but for an empty properties', () => {
    const skipped: AiToolError[] = []
    expect(openaiTools(tools, { api: 'chat', onSkip: (e) => skipped.push(e) })).toEqual([
      { type: 'function', function: { name: 'files_read', description: 'Reads', parameters: tools[0]!.inputSchema } },
      { type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {} } } },
    ])
    expect(skipped.map((e) => [e.reason, e.tool])).toEqual([['input-schema', 'bad']])
    expect(openaiTools(tools, { api: 'responses' })[0]).toEqual({ type: 'function', name: 'files_read', description: 'Reads', parameters: tools[0]!.inputSchema, strict: false })
    expect(mcpToolName('files_read', tools)).toBe('files.read')
  })

  it('anthropic definitions', () => {
    expect(anthropicTools(tools, { prefix: 'fs_' })).toEqual([
      { name: 'fs_files_read', description: 'Reads', input_schema: tools[0]!.inputSchema },
      { name: 'fs_ping', input_schema: { type: 'object', properties: {} } },
    ])
    expect(mcpToolName('fs_ping', tools, { prefix: 'fs_' })).toBe('ping')
  })
})

describe('openaiToolResult / anthropicToolResult', () => {
  it('chat: text only, images named', () => {
    const message = openaiToolResult(media, 'call_1', { api: 'chat' })
    expect(message).toMatchObject({ role: 'tool', tool_call_id: 'call_1' })
    expect(message.content).toMatch(/^look\n\[image\/png .*left out/)
    expect(JSON.stringify(message)).not.toContain(PNG)
  })

  it('responses: images as data: URLs, audio named', () => {
    expect(openaiToolResult(media, 'call_1', { api: 'responses' })).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: [
        { type: 'input_text', text: 'look' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
        { type: 'input_text', text: expect.stringContaining('audio/wav') },
      ],
    })
    expect(openaiToolResult({ content: [{ type: 'text', text: 'no' }], isError: true }, 'c', { api: 'responses' })).toEqual({ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'Error:' }, { type: 'input_text', text: 'no' }] })
  })

  it('anthropic: base64 image source, is_error', () => {
    expect(anthropicToolResult(media, 'tu_1')).toEqual({
      type: 'tool_result',
      tool_use_id: 'tu_1',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'text', text: expect.stringContaining('audio/wav') },
      ],
    })
    expect(anthropicToolResult({ content: [{ type: 'text', text: 'no' }], isError: true }, 't')).toMatchObject({ is_error: true })
  })

  it('unknown content is a typed error for that result', () => {
    const odd = { content: [{ type: 'hologram' }] } as unknown as CallToolResult
    expect(() => anthropicToolResult(odd, 't')).toThrow(AiToolError)
    expect(() => openaiToolResult(odd, 'c', { api: 'chat' })).toThrow(/hologram/)
  })
})
