// A zod verdict: nothing when a value fits, else zod's issues. Their words (explain.ts) are loaded apart: a
// client needs them only for a malformed message.
import * as z from 'zod/mini'
import { ProtocolError } from '../errors/protocol-error'
import { accepts } from './accepts'

export type Issue = z.core.$ZodIssue

/** `result.tools[2].inputSchema` from a zod path. */
export function formatPath(root: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : `${out}.${String(key)}`), root)
}

/**
 * Nothing when the schema accepts the value, else zod's issues. The quick test answers first; zod parses (and
 * copies) only what it turns down. reportInput: a message says what was there instead ("got string"); the
 * inputs stay out of the lines `describe` makes.
 */
export function issuesOf(schema: z.ZodMiniType, value: unknown): Issue[] | undefined {
  return accepts(schema)(value) ? undefined : schema.safeParse(value, { reportInput: true }).error?.issues
}

/** `Malformed tools/list result: result.tools[0].inputSchema: required object`, every line in `detail`. */
export function malformed(what: string, lines: string[]): ProtocolError {
  return new ProtocolError('invalid-result', `Malformed ${what}: ${lines[0]}${lines.length > 1 ? ` (and ${lines.length - 1} more)` : ''}`, lines)
}
