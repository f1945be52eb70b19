// Provider-safe tool names. OpenAI and Anthropic accept `^[a-zA-Z0-9_-]{1,64}$`; MCP allows dots, slashes,
// spaces (in older servers) and any length. The names given to the model must stay unique across servers and
// map back to exactly one MCP tool, and must not depend on the order tools were listed in: the same list
// gives the same names on every page load, so a conversation stored yesterday still points at the right tool.
import type { Tool } from '../schemas/types'
import { AiToolError } from './ai-tool-error'

// `\w` is `[a-zA-Z0-9_]`: ASCII only, with or without `u` (the `i` flag is never used here).
export const PROVIDER_NAME = /^[\w-]{1,64}$/
const MAX = 64
/** Room for `_` and 8 hex digits after a shortened or colliding name. */
const KEEP = MAX - 9

/** FNV-1a over UTF-16 units: a sync, dependency-free 32-bit digest, enough to tell a handful of names apart. */
function digest(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16).padStart(8, '0')
}

const suffixed = (base: string, full: string, salt = '') => `${base.slice(0, KEEP)}_${digest(full + salt)}`

export interface ProviderNames {
  /** Provider name → MCP tool, in the order of the list. */
  names: Map<string, Tool>
  /** Tools left out because no character of their name is one a provider accepts. */
  skipped: AiToolError[]
}

/**
 * Gives each tool a provider-safe name: `prefix + name` with every character outside `[a-zA-Z0-9_-]` turned
 * into `_`; a name still too long is cut to 55 characters plus `_` and 8 hex digits of a digest of the whole
 * name. Names that are already valid are kept as they are; when two names end up the same, a valid one keeps
 * it and every other gets the digest suffix (so the result does not depend on the list's order).
 */
export function providerNames(tools: readonly Tool[], prefix = ''): ProviderNames {
  const skipped: AiToolError[] = []
  const entries: { tool: Tool; full: string; base: string }[] = []
  for (const tool of tools) {
    if (!/[\w-]/.test(tool.name)) {
      skipped.push(new AiToolError('name', tool.name, 'no character a provider accepts'))
      continue
    }
    const full = prefix + tool.name
    entries.push({ tool, full, base: full.replace(/[^\w-]/gu, '_') })
  }
  const names = new Map<string, Tool>()
  for (const { tool, full, base } of entries) {
    // Whether a name needs its digest depends on the whole list, never on which tools were named before it.
    const shared = entries.filter((other) => other.base === base).length > 1
    let name = !PROVIDER_NAME.test(full) && (shared || base.length > MAX) ? suffixed(base, full) : base
    // A digest that lands on a name already taken (or a server listing one name twice) is salted until free.
    for (let salt = 1; names.has(name); salt++) name = suffixed(base, full, `#${salt}`)
    names.set(name, tool)
  }
  return { names, skipped }
}

/**
 * The MCP tool name behind a provider name, worked out from the same tool list and prefix that named it
 * (naming is deterministic, so no table needs to be kept); undefined for a name that is not one of them.
 */
export function mcpToolName(providerName: string, tools: readonly Tool[], options: { prefix?: string } = {}): string | undefined {
  return providerNames(tools, options.prefix).names.get(providerName)?.name
}

/**
 * What openai.ts, anthropic.ts and the AI SDK tool set all hand a model: each tool under its provider name, with
 * its description and input schema. Tools that get no name join `skipped`, and every skipped tool goes to `onSkip`.
 */
export function named(tools: readonly Tool[], options: { prefix?: string; onSkip?: (error: AiToolError) => void }, skipped: AiToolError[]): Map<string, Tool> {
  const { names, skipped: unnamed } = providerNames(tools, options.prefix)
  skipped.push(...unnamed)
  for (const error of skipped) options.onSkip?.(error)
  return names
}
