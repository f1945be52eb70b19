// Approval through the AI SDK's current mechanism (`toolApproval` on generateText / streamText / agents), not
// the deprecated `needsApproval` on each tool. Which tools ask is decided where the set is built (aiTools'
// `approve`); the set is a plain ToolSet, so the decision is kept beside it, keyed by the tool object, and one
// function answers for every set from every server.
import type { ModelMessage, ToolApprovalStatus, ToolSet } from 'ai'

type Decide = (input: Record<string, unknown>) => boolean | Promise<boolean>

/** AI SDK tool → whether a call with this input asks the user first; filled where the set is built. */
export const decisions = new WeakMap<object, Decide>()

/**
 * Pass as `toolApproval` to generateText, streamText or an agent: the calls that aiTools' `approve` picked
 * come back as `tool-approval-request` parts and run only after a `tool-approval-response` approves them;
 * every other call runs at once. Tools not made by aiTools are left alone (`not-applicable`).
 */
export async function mcpApproval(options: { toolCall: { toolName: string; input: unknown }; tools: ToolSet | undefined }): Promise<ToolApprovalStatus> {
  // A WeakMap answers undefined for a key that is no object: a tool name the set does not have needs no check.
  const decide = decisions.get(options.tools?.[options.toolCall.toolName] as object)
  return decide && (await decide((options.toolCall.input ?? {}) as Record<string, unknown>)) ? 'user-approval' : undefined
}

/**
 * Whether the conversation holds the user's yes to this call: its approval request and an approving response.
 * A tool that needs approval runs only then, so a caller that forgot `toolApproval` gets an error, not a call.
 */
export function approvedIn(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const parts = messages.flatMap((message): unknown[] => (Array.isArray(message.content) ? message.content : [])) as { type: string; toolCallId?: string; approvalId?: string; approved?: boolean }[]
  return parts.some((yes) => yes.type === 'tool-approval-response' && yes.approved && parts.some((ask) => ask.approvalId === yes.approvalId && ask.toolCallId === toolCallId))
}
