// Approval through the AI SDK's current mechanism (`toolApproval` on generateText / streamText / agents), not
// the deprecated `needsApproval` on each tool. Which tools ask is decided where the set is built (aiTools'
// `approve`); the set is a plain ToolSet, so the decision is kept beside it, keyed by the tool object, and one
// function answers for every set from every server.
import type { ToolApprovalStatus, ToolSet } from 'ai'

type Decide = (input: Record<string, unknown>) => boolean | Promise<boolean>

const decisions = new WeakMap<object, Decide>()

export function needsApproval(aiTool: object, decide: Decide): void {
  decisions.set(aiTool, decide)
}

export async function approvalNeeded(aiTool: object | undefined, input: unknown): Promise<boolean> {
  const decide = aiTool && decisions.get(aiTool)
  return !!decide && (await decide((input ?? {}) as Record<string, unknown>))
}

/**
 * Pass as `toolApproval` to generateText, streamText or an agent: the calls that aiTools' `approve` picked
 * come back as `tool-approval-request` parts and run only after a `tool-approval-response` approves them;
 * every other call runs at once. Tools not made by aiTools are left alone (`not-applicable`).
 */
export async function mcpApproval(options: { toolCall: { toolName: string; input: unknown }; tools: ToolSet | undefined }): Promise<ToolApprovalStatus> {
  return (await approvalNeeded(options.tools?.[options.toolCall.toolName], options.toolCall.input)) ? 'user-approval' : undefined
}
