// What openai.ts and anthropic.ts share: which tools go to the model under which names, and a result checked
// for content this library does not know.
import type { Tool } from '../schemas/types'
import type { AiToolError } from './ai-tool-error'
import type { Part } from './content'
import { named } from './names'
import { providerSchema, usable } from './visible'

export interface PlainOptions {
  /** Put before every provider name (map names back with `mcpToolName(name, tools, { prefix })`). */
  prefix?: string
  /** A tool left out: input schema not an object schema, or a name with no character a provider accepts. */
  onSkip?: (error: AiToolError) => void
}

export function definitions(tools: readonly Tool[], options: PlainOptions): { name: string; description: string | undefined; parameters: Record<string, unknown> }[] {
  const skipped: AiToolError[] = []
  return [...named(usable(tools, skipped), options, skipped)].map(([name, t]) => ({ name, description: t.description ?? t.title, parameters: providerSchema(t) }))
}

export const dataUrl = (part: Extract<Part, { kind: 'file' }>) => `data:${part.mediaType};base64,${part.data}`

/** What a model reads in place of a file the API cannot take there. */
export const omitted = (part: Extract<Part, { kind: 'file' }>) => `[${part.mediaType} file left out: not accepted here]`
