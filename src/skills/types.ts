// Wire and result types of the Skills extension (SEP-2640), apart from the logic that reads them.

/** One file of a skill, with what a host needs to verify it before use. */
export interface SkillResourceEntry {
  /** Resource URI of the file (read with `resources/read`). */
  uri: string
  /** `sha256:` and 64 lowercase hex digits: the SHA-256 of the file's raw bytes. */
  digest: string
  /** Length of the file's raw bytes. */
  size: number
}

/** A `SKILL.md` frontmatter as the server's entry carries it (JSON), at least `name` and `description`. */
export interface SkillFrontmatter {
  name: string
  description: string
  [field: string]: unknown
}

/** One skill as `skills/list` and `skills/get` describe it. Nothing of it has been read yet. */
export interface Skill {
  /** URI of the skill's `SKILL.md`; the skill's other files live beside it. */
  uri: string
  frontmatter: SkillFrontmatter
  /** Every file of the skill, or `'dynamic'` (files generated on read: no size or digest to check). */
  resources: SkillResourceEntry[] | 'dynamic'
  _meta?: Record<string, unknown>
  [field: string]: unknown
}

/** A `skills/list` entry that was refused, and why (`index` counts across every page). */
export interface InvalidSkill {
  index: number
  uri?: string
  reason: string
}

export interface SkillListing {
  skills: Skill[]
  /** Entries refused for their shape; they are never handed out as skills. */
  invalid: InvalidSkill[]
  /** Whether the server declared the extension (`false`: nothing was asked, `skills` is empty). */
  supported: boolean
}

/** A skill file as read and verified. */
export interface SkillFile {
  /** The URI that was read (the entry's spelling). */
  uri: string
  mimeType?: string
  /** Exactly the bytes the entry's size and digest cover. */
  bytes: Uint8Array
  /** The bytes as UTF-8 text, when the server sent text. */
  text?: string
  /** Size and digest were checked against the entry; `false` only for `'dynamic'` skills. */
  verified: boolean
}

/** A loaded skill: its `SKILL.md`, verified, split into frontmatter and body. */
export interface LoadedSkill extends SkillFile {
  skill: Skill
  /** The frontmatter parsed from the file, equal field by field to the entry's. */
  frontmatter: Record<string, unknown>
  /** The markdown after the frontmatter. */
  body: string
}

export interface SkillOptions {
  signal?: AbortSignal
  /** ms, per request. */
  timeout?: number
  /**
   * Parses the YAML between a `SKILL.md`'s `---` lines. The built-in parser reads the flat subset skills use
   * (scalars, quoted strings, one level of maps and lists) and refuses anything else as a verification failure.
   */
  parseFrontmatter?: (yaml: string) => Record<string, unknown>
  /** Refuse files larger than this many bytes before reading them. Default 16 MiB, the extension's per-skill limit. */
  maxBytes?: number
}

/** Why a skill file failed verification. */
export type SkillVerificationReason = 'unlisted' | 'size' | 'digest' | 'frontmatter' | 'too-large' | 'content'
