// One listing of MCP tools → one AI SDK ToolSet: model-visible tools only, provider-safe names, the tool's own
// JSON Schema as input, calls through nanomcp with the step's abort signal, MCP content as v7 content output.
import { jsonSchema, tool, type ToolSet } from 'ai'
import type { Progress } from '../client/types'
import type { CallToolResult, Tool } from '../schemas/types'
import type { AiToolsOptions, McpSource } from './types'
import type { PinChange } from './pin-tools'
import { AiToolError } from './ai-tool-error'
import { approvedIn, decisions } from './approval'
import { toParts } from './content'
import { toModelOutput } from './model-output'
import { named } from './names'
import { providerSchema, usable } from './visible'

export interface Built {
  tools: ToolSet
  skipped: AiToolError[]
  withheld: PinChange[]
}

/** Ask for tools that say they destroy something (an explicit hint: absent hints are not taken as a threat). */
const destructive = (t: Tool) => t.annotations?.destructiveHint === true && t.annotations.readOnlyHint !== true


export async function buildToolSet(mcp: McpSource, listed: readonly Tool[], options: AiToolsOptions, skipped: AiToolError[] = []): Promise<Built> {
  let tools = usable(listed, skipped, options.filter)
  let withheld: PinChange[] = []
  if (options.pinTools) ({ kept: tools, changed: withheld } = await options.pinTools.check(tools))
  const { approve = destructive, onProgress, timeout } = options
  const set: ToolSet = {}
  for (const [name, mcpTool] of named(tools, options, skipped)) {
    const decide = approve === true ? () => true : approve && ((input: Record<string, unknown>) => approve(mcpTool, input))
    const aiTool = tool({
      description: mcpTool.description ?? mcpTool.title ?? mcpTool.annotations?.title,
      inputSchema: jsonSchema<Record<string, unknown>>(providerSchema(mcpTool)),
      async execute(input, { abortSignal, toolCallId, messages }): Promise<CallToolResult> {
        if (decide && (await decide(input)) && !approvedIn(messages, toolCallId)) throw new AiToolError('approval-required', mcpTool.name, 'not approved (pass toolApproval: mcpApproval)')
        const request = { signal: abortSignal, onProgress: onProgress && ((progress: Progress) => onProgress(progress, { tool: mcpTool.name, toolCallId })), timeout }
        const result = '$tools' in mcp ? mcp.callTool(mcpTool.name, input, request) : mcp.callTool({ name: mcpTool.name, arguments: input }, request)
        // Checked here, where a failure is this call's error; toModelOutput must not throw.
        toParts((await result) as CallToolResult, mcpTool.name)
        return result as Promise<CallToolResult>
      },
      toModelOutput: ({ output }) => toModelOutput(output),
    })
    if (decide) decisions.set(aiTool, decide)
    set[name] = aiTool
  }
  return { tools: set, skipped, withheld }
}
