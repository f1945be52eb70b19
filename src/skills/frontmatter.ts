// SKILL.md frontmatter: the YAML block between the first two `---` lines. The built-in reader handles the flat
// subset Agent Skills use (scalars, quoted strings, one level of block maps and lists, flow lists of scalars);
// anything else throws, so an unreadable frontmatter is a verification failure rather than a silent pass.
// Apps with richer frontmatter pass their own YAML parser (`parseFrontmatter`).

/** Splits a SKILL.md into its YAML text and body, or returns undefined when it has no frontmatter block. */
export function splitFrontmatter(text: string): { yaml: string; body: string } | undefined {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n')
  if (!normalized.startsWith('---\n')) return undefined
  const end = normalized.indexOf('\n---', 3)
  if (end === -1) return undefined
  const after = normalized.indexOf('\n', end + 4)
  // The closing fence is `---` alone on its line (trailing spaces allowed).
  const fence = normalized.slice(end + 1, after === -1 ? undefined : after)
  if (fence.trimEnd() !== '---') return undefined
  return { yaml: normalized.slice(4, end + 1), body: after === -1 ? '' : normalized.slice(after + 1) }
}

/** YAML 1.2 core-schema typing of a plain or quoted scalar. */
function scalar(raw: string): unknown {
  const text = raw.replace(/\s+#.*$/, '').trim()
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2) throw new Error(`unterminated string ${text}`)
    return JSON.parse(text)
  }
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) throw new Error(`unterminated string ${text}`)
    return text.slice(1, -1).replace(/''/g, "'")
  }
  if (/^[[{|>&*!%@`]/.test(text)) {
    if (/^\[.*\]$/.test(text)) return flowList(text)
    throw new Error(`unsupported YAML value ${text}`)
  }
  if (text === '' || text === '~' || /^(null|Null|NULL)$/.test(text)) return null
  if (/^(true|True|TRUE)$/.test(text)) return true
  if (/^(false|False|FALSE)$/.test(text)) return false
  if (/^[-+]?\d+$/.test(text)) return Number(text)
  if (/^[-+]?(\.\d+|\d+(\.\d*)?)([eE][-+]?\d+)?$/.test(text)) return Number(text)
  return text
}

function flowList(text: string): unknown[] {
  const inner = text.slice(1, -1).trim()
  if (!inner) return []
  if (/[[\]{}]/.test(inner) || /["']/.test(inner)) throw new Error(`unsupported YAML flow list ${text}`)
  return inner.split(',').map((item) => scalar(item))
}

const keyLine = /^([A-Za-z0-9_][\w.-]*)\s*:(?:\s+(.*))?$/

/** Parses the frontmatter subset described above; throws an Error naming the line it cannot read. */
export function parseFrontmatterYaml(yaml: string): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null)
  const lines = yaml.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (!line.trim() || /^\s*#/.test(line)) continue
    if (/^\s/.test(line)) throw new Error(`unexpected indentation: ${line}`)
    const match = keyLine.exec(line.trimEnd())
    if (!match) throw new Error(`cannot read line: ${line}`)
    const key = match[1]!
    if (key in out) throw new Error(`duplicate key ${key}`)
    if (match[2] !== undefined && match[2].replace(/\s+#.*$/, '').trim() !== '') {
      out[key] = scalar(match[2])
      continue
    }
    // A block: the indented lines that follow, all list items or all `key: value` pairs.
    const block: string[] = []
    while (i + 1 < lines.length && (/^\s+\S/.test(lines[i + 1]!) || (lines[i + 1]!.startsWith('- ')))) block.push(lines[++i]!.trim())
    if (!block.length) out[key] = null
    else if (block.every((item) => item.startsWith('- '))) out[key] = block.map((item) => scalar(item.slice(2)))
    else {
      const map: Record<string, unknown> = Object.create(null)
      for (const item of block) {
        const pair = keyLine.exec(item)
        if (!pair || pair[2] === undefined) throw new Error(`unsupported nested YAML: ${item}`)
        map[pair[1]!] = scalar(pair[2])
      }
      out[key] = { ...map }
    }
  }
  return { ...out }
}

/** Deep equality over JSON values, for comparing a parsed frontmatter with the entry's. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]))
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  }
  return false
}

/** One line per field whose value differs between the file's frontmatter and the entry's. */
export function frontmatterDifferences(file: Record<string, unknown>, entry: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(entry), ...Object.keys(file)])
  const differences: string[] = []
  for (const key of keys) {
    if (!Object.hasOwn(file, key)) differences.push(`${key}: missing from the file`)
    else if (!Object.hasOwn(entry, key)) differences.push(`${key}: not in the entry`)
    else if (!sameJson(file[key], entry[key])) differences.push(`${key}: differs`)
  }
  return differences
}
