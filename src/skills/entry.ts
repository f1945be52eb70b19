// What makes a skills/list entry usable. Checked before an entry is handed to the app, so every later read can
// trust its uri, sizes and digests.
import { isObject } from '../transport/json-rpc'
import type { Skill } from './types'

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills'
/** The extension's per-skill interoperability limits: hosts accept skills up to these. */
export const SKILL_LIMITS = Object.freeze({ files: 512, bytes: 16 * 1024 * 1024 })

const digestPattern = /^sha256:[\da-f]{64}$/

/** What is wrong with a skill entry, or undefined when it can be used. */
export function entryProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'not an object'
  if (typeof value.uri !== 'string' || !value.uri.endsWith('/SKILL.md')) return 'uri is not the URI of a SKILL.md'
  const frontmatter = value.frontmatter
  if (!isObject(frontmatter) || typeof frontmatter.name !== 'string' || typeof frontmatter.description !== 'string') {
    return 'frontmatter lacks a string name and description'
  }
  // A __proto__ key would make the later field-by-field comparison lie.
  if (Object.getPrototypeOf(frontmatter) !== Object.prototype || Object.hasOwn(frontmatter, '__proto__')) return 'frontmatter has a __proto__ field'
  const resources = value.resources
  if (resources === 'dynamic') return undefined
  if (!Array.isArray(resources)) return 'resources is neither a list nor "dynamic"'
  if (resources.length > SKILL_LIMITS.files) return `more than ${SKILL_LIMITS.files} files`
  for (const item of resources) {
    if (!isObject(item) || typeof item.uri !== 'string') return 'a resource entry lacks a uri'
    if (typeof item.digest !== 'string' || !digestPattern.test(item.digest)) return `${item.uri}: digest is not sha256:<64 lowercase hex>`
    if (typeof item.size !== 'number' || !Number.isInteger(item.size) || item.size < 0) return `${item.uri}: size is not a non-negative integer`
  }
  if (!resources.some((item) => sameUri(item.uri, value.uri as string))) return 'resources does not list the SKILL.md itself'
  return undefined
}

/** Two spellings of one URI (percent-encoding and dot segments aside) name the same file. */
export function sameUri(a: string, b: string): boolean {
  return normalize(a) === normalize(b)
}

export function normalize(uri: string): string {
  try {
    const url = new URL(uri)
    url.hash = ''
    return decodeURI(url.href)
  } catch {
    return uri
  }
}

/** The URI of `ref` (a path relative to the skill's directory, or an absolute URI) within `skill`. */
export function resolveRef(skill: Skill, ref: string): string {
  try {
    const url = new URL(ref, skill.uri)
    url.hash = ''
    return url.href
  } catch {
    return ref
  }
}
