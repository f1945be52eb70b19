// Host side of the Skills extension (SEP-2640) over a Client's public request(): list a server's skills, then
// load one when the app decides to, verifying every file against the entry before anything of it is returned.
// Nothing is read ahead of need: listing reads no file, loading reads only SKILL.md, and each supporting file is
// read when the app asks for it (the extension forbids prefetching on connection, on listing and on approval).
import type { Client } from '../client/client'
import type { ExtensionMethod } from '../schemas/method-map'
type Result = Record<string, unknown>
import { ProtocolError } from '../errors/protocol-error'
import { RpcError } from '../errors/rpc-error'
import { SkillVerificationError } from '../errors/skill-verification-error'
import { contentBytes, sha256Digest } from './bytes'
import { entryProblem, normalize, resolveRef, sameUri, SKILL_LIMITS, SKILLS_EXTENSION } from './entry'
import { frontmatterDifferences, parseFrontmatterYaml, splitFrontmatter } from './frontmatter'
import type { InvalidSkill, LoadedSkill, Skill, SkillFile, SkillListing, SkillOptions } from './types'

/** What the helpers need of a Client: its public request() and, when connected, what the server declared. */
export type SkillsClient = Pick<Client, 'request' | 'server'>

// The extension's methods are not in the spec's method map.
const SKILLS_LIST = 'skills/list' as ExtensionMethod
const SKILLS_GET = 'skills/get' as ExtensionMethod
const MAX_PAGES = 100
const METHOD_NOT_FOUND = -32601

const requestOptions = (options: SkillOptions) => ({ signal: options.signal, timeout: options.timeout })

/**
 * Every skill the server lists (all pages), each entry checked for shape; none of their files is read. A server
 * known not to declare the extension is not asked; one that answers "method not found" has none.
 */
export async function listSkills(client: SkillsClient, options: SkillOptions = {}): Promise<SkillListing> {
  const extensions = client.server?.capabilities?.extensions as Record<string, unknown> | undefined
  if (client.server && !extensions?.[SKILLS_EXTENSION]) return { skills: [], invalid: [], supported: false }
  const skills: Skill[] = []
  const invalid: InvalidSkill[] = []
  const seen = new Set<string>()
  const cursors = new Set<string>()
  let cursor: string | undefined
  let index = 0
  for (let page = 0; page < MAX_PAGES; page++) {
    let result: Result
    try {
      result = await client.request(SKILLS_LIST, cursor ? { cursor } : {}, requestOptions(options))
    } catch (error) {
      if (error instanceof RpcError && error.code === METHOD_NOT_FOUND && page === 0) return { skills: [], invalid: [], supported: false }
      throw error
    }
    if (!Array.isArray(result.skills)) throw new ProtocolError('invalid-result', 'skills/list result has no skills array', result)
    for (const entry of result.skills as unknown[]) {
      const uri = (entry as { uri?: unknown } | null)?.uri
      const problem = entryProblem(entry) ?? (seen.has(normalize(uri as string)) ? 'the same SKILL.md URI is listed twice' : undefined)
      if (problem) invalid.push({ index, uri: typeof uri === 'string' ? uri : undefined, reason: problem })
      else {
        seen.add(normalize(uri as string))
        skills.push(entry as Skill)
      }
      index++
    }
    const next = result.nextCursor
    if (typeof next !== 'string' || next === '') return { skills, invalid, supported: true }
    if (cursors.has(next)) throw new ProtocolError('pagination', 'skills/list repeated a cursor')
    cursors.add(next)
    cursor = next
  }
  throw new ProtocolError('pagination', `skills/list did not end within ${MAX_PAGES} pages`)
}

/** One skill's entry by its SKILL.md URI (`skills/get`), listed or not, checked like a listed one. */
export async function getSkill(client: SkillsClient, uri: string, options: SkillOptions = {}): Promise<Skill> {
  const result = await client.request(SKILLS_GET, { uri }, requestOptions(options))
  const problem = entryProblem(result.skill)
  if (problem) throw new ProtocolError('invalid-result', `skills/get: ${problem}`, result)
  if (!sameUri((result.skill as Skill).uri, uri)) throw new ProtocolError('invalid-result', 'skills/get answered with another skill', result)
  return result.skill as Skill
}

/**
 * Loads a skill: reads its SKILL.md, checks size and digest against the entry, parses the frontmatter and
 * compares it field by field with the entry's. Throws SkillVerificationError on any mismatch; the content is
 * returned only when every check passed.
 */
export async function loadSkill(client: SkillsClient, skill: Skill, options: SkillOptions = {}): Promise<LoadedSkill> {
  const file = await readSkillFile(client, skill, skill.uri, options)
  const parts = file.text === undefined ? undefined : splitFrontmatter(file.text)
  if (!parts) throw new SkillVerificationError('frontmatter', file.uri, 'SKILL.md has no frontmatter block')
  let frontmatter: Record<string, unknown>
  try {
    frontmatter = (options.parseFrontmatter ?? parseFrontmatterYaml)(parts.yaml)
  } catch (error) {
    throw new SkillVerificationError('frontmatter', file.uri, `SKILL.md frontmatter cannot be read: ${(error as Error)?.message ?? error}`)
  }
  const differences = frontmatterDifferences(frontmatter, skill.frontmatter)
  if (differences.length) throw new SkillVerificationError('frontmatter', file.uri, `SKILL.md frontmatter differs from the skill entry (${differences.join('; ')})`, differences)
  return { ...file, skill, frontmatter, body: parts.body }
}

/**
 * Reads one file of a skill and verifies it. `ref` is a path relative to the skill's directory
 * (`references/FORMS.md`) or an absolute URI; it must be listed in the entry, which is checked before any
 * request. `'dynamic'` skills are only held to their own directory, and come back with `verified: false`.
 */
export async function readSkillFile(client: SkillsClient, skill: Skill, ref: string, options: SkillOptions = {}): Promise<SkillFile> {
  const problem = entryProblem(skill)
  if (problem) throw new TypeError(`not a usable skill entry: ${problem}`)
  const uri = resolveRef(skill, ref)
  const dynamic = skill.resources === 'dynamic'
  const entry = dynamic ? undefined : (skill.resources as Exclude<Skill['resources'], 'dynamic'>).find((item) => sameUri(item.uri, uri))
  const root = normalize(skill.uri).slice(0, -'SKILL.md'.length)
  if (dynamic ? !normalize(uri).startsWith(root) : !entry) {
    throw new SkillVerificationError('unlisted', uri, dynamic ? 'the file is outside the skill directory' : 'the file is not listed in the skill entry')
  }
  const limit = options.maxBytes ?? SKILL_LIMITS.bytes
  if (entry && entry.size > limit) throw new SkillVerificationError('too-large', entry.uri, `the entry's size (${entry.size} B) is over the limit of ${limit} B`)
  const target = entry?.uri ?? uri
  const result: { contents?: unknown } = await client.request('resources/read', { uri: target }, requestOptions(options))
  const contents = Array.isArray(result.contents) ? (result.contents as Record<string, unknown>[]) : []
  const item = contents.length === 1 ? contents[0] : contents.find((c) => typeof c?.uri === 'string' && sameUri(c.uri, target))
  const read = item && typeof item === 'object' ? contentBytes(item) : undefined
  if (!read) throw new SkillVerificationError('content', target, 'resources/read returned no text or blob for the file')
  if (read.bytes.length > limit) throw new SkillVerificationError('too-large', target, `the file (${read.bytes.length} B) is over the limit of ${limit} B`)
  if (entry) {
    // A length mismatch is a failure on its own, with no need to hash.
    if (read.bytes.length !== entry.size) throw new SkillVerificationError('size', target, `the file has ${read.bytes.length} bytes, the entry says ${entry.size}`)
    if ((await sha256Digest(read.bytes)) !== entry.digest) throw new SkillVerificationError('digest', target, "the file's SHA-256 differs from the entry's digest")
  }
  const mimeType = typeof item!.mimeType === 'string' ? item!.mimeType : undefined
  return { uri: target, ...(mimeType && { mimeType }), bytes: read.bytes, ...(read.text !== undefined && { text: read.text }), verified: !!entry }
}
