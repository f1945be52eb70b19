import { describe, expect, it } from 'vitest'
import { frontmatterDifferences, parseFrontmatterYaml, splitFrontmatter } from './frontmatter'

describe('splitFrontmatter', () => {
  it('splits the YAML between the fences from the body, with BOM and CRLF removed', () => {
    expect(splitFrontmatter('\uFEFF---\r\nname: a\r\n---\r\nbody\r\n')).toEqual({ yaml: 'name: a\n', body: 'body\n' })
  })

  it('finds no frontmatter without an opening or a closing fence', () => {
    expect(splitFrontmatter('name: a\n---\n')).toBeUndefined()
    expect(splitFrontmatter('---\nname: a\n')).toBeUndefined()
    expect(splitFrontmatter('---\nname: a\n----\n')).toBeUndefined()
  })
})

describe('parseFrontmatterYaml', () => {
  it('types plain scalars as YAML 1.2 core schema does and keeps quoted strings as strings', () => {
    expect(parseFrontmatterYaml('a: 1\nb: 1.5\nc: true\nd: ~\ne: "1"\nf: \'it\'\'s\'\ng: plain text # comment\n')).toEqual({
      a: 1,
      b: 1.5,
      c: true,
      d: null,
      e: '1',
      f: "it's",
      g: 'plain text',
    })
  })

  it('reads one level of block maps and lists, and flow lists of scalars', () => {
    expect(parseFrontmatterYaml('metadata:\n  owner: dyne\n  tier: 2\ntools:\n  - bash\n  - git\nflow: [a, b]\n')).toEqual({
      metadata: { owner: 'dyne', tier: 2 },
      tools: ['bash', 'git'],
      flow: ['a', 'b'],
    })
  })

  it('refuses what it cannot read instead of guessing', () => {
    expect(() => parseFrontmatterYaml('a: |\n  text\n')).toThrow(/unsupported/)
    expect(() => parseFrontmatterYaml('a: 1\na: 2\n')).toThrow(/duplicate/)
    expect(() => parseFrontmatterYaml('nested:\n  deeper:\n    x: 1\n')).toThrow()
    expect(() => parseFrontmatterYaml('just text\n')).toThrow(/cannot read/)
  })
})

describe('frontmatterDifferences', () => {
  it('names fields that differ, are missing or are extra', () => {
    expect(frontmatterDifferences({ name: 'a', description: 'x', extra: 1 }, { name: 'a', description: 'y', license: 'MIT' })).toEqual([
      'description: differs',
      'license: missing from the file',
      'extra: not in the entry',
    ])
  })
})
