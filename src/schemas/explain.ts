// Turns a zod verdict into nanomcp's error: a ProtocolError('invalid-result') whose message names the first
// offending path and what was expected there, with every issue in `detail`. check.ts holds the quick verdict;
// this file the words, which only a malformed message needs.
import type * as z from 'zod/mini'
import { formatPath, issuesOf, malformed, type Issue } from './check'

const show = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : String(value))

/**
 * What the value at the issue's path should have been, in a few words (no zod locale is bundled). Only the
 * codes the schemas can produce: ranges, lengths and formats are refinements with their own message (base.ts
 * `must`), so zod's too_big / too_small / invalid_format never arise and cost no bytes here.
 */
function expected(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `required ${issue.expected}` : `expected ${issue.expected}, got ${issue.input === null ? 'null' : Array.isArray(issue.input) ? 'array' : typeof issue.input}`
    case 'invalid_value':
      return `expected ${issue.values.map(show).join(' or ')}`
    case 'invalid_union':
      {
      // A discriminated union names the tags it knows when the value's tag is none of them.
      const { options } = issue as { options?: unknown[] }
      return options ? `expected one of ${options.map(show).join(', ')}` : 'matches no allowed shape'
    }
    default:
      return issue.message
  }
}

/** The issue says the tag (`type`, `method`) picked another branch of a union. */
const onTag = (issue: Issue) => issue.path.length === 1 && (issue.path[0] === 'type' || issue.path[0] === 'method')

/**
 * The issue to report behind a union failure. A content block, notification or input request is matched by
 * its tag: the branch whose tag fits is the one whose issue names the field. When no tag fits, the tag
 * itself is wrong, and the expectation lists every tag the branches know.
 */
function innermost(issue: Issue, path: PropertyKey[]): { issue: Issue; path: PropertyKey[] } {
  const full = [...path, ...issue.path]
  if (issue.code !== 'invalid_union' || !issue.errors.length) return { issue, path: full }
  // A union of primitives (string or integer, integer or null): every branch turned down the value's type, so name
  // every type it allows rather than the first branch's alone.
  const types = issue.errors.map(([first, ...rest]) =>
    !first || rest.length || first.path.length ? '' : first.code === 'invalid_type' ? first.expected : first.code === 'invalid_value' ? first.values.map(show).join(' or ') : '',
  )
  // A union of objects given something else says "object" once.
  if (types.every(Boolean)) return { issue: { ...issue, code: 'invalid_type', expected: [...new Set(types)].join(' or ') } as unknown as Issue, path: full }
  const branch = issue.errors.find((b) => b.length && !b.some(onTag))
  if (branch) return innermost(branch[0]!, full)
  const tags = issue.errors.flat().filter((i) => onTag(i) && i.code === 'invalid_value')
  if (tags.length) return { issue: { ...tags[0]!, values: tags.flatMap((i) => (i as { values: unknown[] }).values) } as Issue, path: [...full, tags[0]!.path[0]!] }
  return { issue, path: full }
}

/** One line per issue: `result.content[0].text: required string`. */
export function describe(issues: readonly Issue[], root = 'result'): string[] {
  return issues.map((raw) => {
    const { issue, path } = innermost(raw, [])
    return `${formatPath(root, path)}: ${expected(issue)}`
  })
}

/**
 * The value itself once the schema accepts it, or a ProtocolError naming what is wrong:
 * `Malformed tools/list result: result.tools[0].inputSchema: required object`. The input is returned, not zod's
 * copy: the schemas never transform, and a copy would turn a server's own `__proto__` key (JSON.parse makes it
 * an ordinary property) into the copy's prototype, losing it.
 */
export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown, what: string, root = 'result'): z.infer<S> {
  const issues = issuesOf(schema, value)
  if (!issues) return value as z.infer<S>
  throw malformed(what, describe(issues, root))
}
