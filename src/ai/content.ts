// MCP content as neutral parts, before each provider's format: text stays text; images, audio and binary
// resources stay bytes with their media type (a model reads base64 pasted as text as noise, and pays for
// every character of it); structured content becomes JSON text when no text block already carries it.
import type { CallToolResult } from '../schemas/types'
import { deepEqual } from '../stores/deep-equal'
import { AiToolError } from './ai-tool-error'

export type Part = { kind: 'text'; text: string } | { kind: 'file'; data: string; mediaType: string; filename?: string }

/** Media types a model reads as text, so a blob of one is decoded rather than sent as a file. */
const textual = (mediaType: string) => /^text\/|[/+](json|xml|yaml|javascript|csv)$/.test(mediaType)

function decode(base64: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)))
}

const lastSegment = (uri: string) => uri.split(/[/?#]/).filter(Boolean).pop()

/** Whether a text block already says what `structuredContent` says (servers are asked to mirror it as JSON text). */
function carried(result: CallToolResult): boolean {
  return result.content.some((block) => {
    try {
      return block.type === 'text' && deepEqual(JSON.parse(block.text), result.structuredContent)
    } catch {
      return false
    }
  })
}

/**
 * Every block of a result as parts, structured content last; AiToolError 'unsupported-content' for a block of a
 * type this library does not know (`tool` names the tool in it).
 */
export function toParts(result: CallToolResult, tool = '(result)'): Part[] {
  const parts: Part[] = []
  for (const block of result.content) {
    if (block.type === 'text') parts.push({ kind: 'text', text: block.text })
    else if (block.type === 'image' || block.type === 'audio') parts.push({ kind: 'file', data: block.data, mediaType: block.mimeType })
    else if (block.type === 'resource_link') {
      const about = [block.mimeType, block.description].filter(Boolean).join(', ')
      parts.push({ kind: 'text', text: `Resource link: ${block.name} <${block.uri}>${about ? ` (${about})` : ''}` })
    } else if (block.type === 'resource') {
      const { uri, mimeType = 'application/octet-stream', text, blob } = block.resource
      if (text !== undefined) parts.push({ kind: 'text', text })
      else if (textual(mimeType)) parts.push({ kind: 'text', text: decode(blob) })
      else parts.push({ kind: 'file', data: blob, mediaType: mimeType, filename: lastSegment(uri) })
    } else throw new AiToolError('unsupported-content', tool, `unknown content type ${String((block as { type?: unknown }).type)}`, block)
  }
  if (result.structuredContent !== undefined && !carried(result)) parts.push({ kind: 'text', text: JSON.stringify(result.structuredContent) })
  return parts
}

/** The parts as one text, files named by their type (`file` says how): for error outputs and APIs that take text only. */
export function asText(parts: Part[], file = (part: Extract<Part, { kind: 'file' }>) => `[${part.mediaType} file]`): string {
  return parts.map((part) => (part.kind === 'text' ? part.text : file(part))).join('\n')
}
