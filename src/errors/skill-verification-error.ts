import { McpError } from './mcp-error'
import type { SkillVerificationReason } from '../skills/types'

/**
 * Thrown by the skills helpers (`loadSkill`, `readSkillFile`) when a file the server served does not match the
 * skill's entry: not listed in it (`unlisted`), a byte length other than the entry's `size` (`size`), a SHA-256
 * other than its `digest` (`digest`), a `SKILL.md` whose frontmatter differs from the entry's or cannot be read
 * (`frontmatter`), an entry over the size limit (`too-large`), or a read with no usable content (`content`).
 * The content is never handed to the app. Carries the `reason`, the file's `uri` and, for `frontmatter`, one
 * line per differing field in `differences`.
 */
export class SkillVerificationError extends McpError {
  override readonly name = 'SkillVerificationError'
  readonly reason: SkillVerificationReason
  readonly uri: string
  readonly differences: readonly string[]

  constructor(reason: SkillVerificationReason, uri: string, message: string, differences: readonly string[] = []) {
    super(message)
    this.reason = reason
    this.uri = uri
    this.differences = differences
  }
}
