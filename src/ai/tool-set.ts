// One listing of MCP tools → one AI SDK ToolSet: model-visible tools only, provider-safe names, the tool's own
// JSON Schema as input, calls through nanomcp with the step's abort signal, MCP content as v7 content output.
import { jsonSchema, tool, type ToolSet } from 'ai'
import type { CallToolResult, Tool } from '../schemas/types'
import type { AiToolsOptions, McpSource } from './types'
import type { PinChange } from './pin-tools'
import { AiToolError } from './ai-tool-error'
import { needsApproval } from './approval'
import { unknownBlock } from './content'
import { toModelOutput } from './model-output'
import { providerNames } from './names'
import { forModel, objectSchema, providerSchema } from './visible'

export interface Built {
  tools: ToolSet
  skipped: AiToolError[]
  withheld: PinChange[]
}

/** Ask for tools that say they destroy something (an explicit hint: absent hints are not taken as a threat). */
const destructive = (t: Tool) => t.annotations?.destructiveHint === true && t.annotations.readOnlyHint !== true

function caller(mcp: McpSource) {
  return '$tools' in mcp
    ? (name: string, args: Record<string, unknown>, options: Parameters<typeof mcp.callTool>[2]) => mcp.callTool(name, args, options)
    : (name: string, args: Record<string, unknown>, options: Parameters<typeof mcp.callTool>[1]) => mcp.callTool({ name, arguments: args }, options)
}

export async function buildToolSet(mcp: McpSource, listed: readonly Tool[], options: AiToolsOptions, skipped: AiToolError[] = []): Promise<Built> {
  const call = caller(mcp)
  let usable = listed.filter((t) => forModel(t) && (options.filter?.(t) ?? true))
  usable = usable.filter((t) => objectSchema(t) || void skipped.push(new AiToolError('input-schema', t.name, 'its inputSchema is not an object schema, so it was left out', t.inputSchema)))
  let withheld: PinChange[] = []
  if (options.pinTools) ({ kept: usable, changed: withheld } = await options.pinTools.check(usable))
  const { names, skipped: unnamed } = providerNames(usable, options.prefix)
  skipped.push(...unnamed)
  for (const error of skipped) options.onSkip?.(error)
  const { approve = destructive } = options
  const tools: ToolSet = {}
  for (const [name, mcpTool] of names) {
    const aiTool = tool({
      description: mcpTool.description ?? mcpTool.title ?? mcpTool.annotations?.title,
      inputSchema: jsonSchema<Record<string, unknown>>(providerSchema(mcpTool)),
      async execute(input, { abortSignal, toolCallId }): Promise<CallToolResult> {
        const onProgress = options.onProgress && ((progress: Parameters<NonNullable<AiToolsOptions['onProgress']>>[0]) => options.onProgress!(progress, { tool: mcpTool.name, toolCallId }))
        const result = (await call(mcpTool.name, input, { signal: abortSignal, onProgress, timeout: options.timeout })) as CallToolResult
        const odd = unknownBlock(result)
        if (odd) throw new AiToolError('unsupported-content', mcpTool.name, `the result holds content of an unknown type (${String((odd as { type?: unknown }).type)})`, odd)
        return result
      },
      toModelOutput: ({ output }) => toModelOutput(output),
    })
    if (approve !== false) needsApproval(aiTool, approve === true ? () => true : (input) => approve(mcpTool, input))
    tools[name] = aiTool
  }
  return { tools, skipped, withheld }
}
