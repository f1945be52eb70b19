import { createHash } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { Client } from '../client/client'
import { SkillVerificationError } from '../errors/skill-verification-error'
import { scriptedServer, type ScriptedServer, type Seen } from '../testing/scripted-server'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { listSkills, loadSkill, readSkillFile, type SkillsClient } from './skills'
import type { Skill } from './types'

const SKILL = 'skill://pdf-processing/SKILL.md'
const FORMS = 'skill://pdf-processing/references/FORMS.md'
const skillMd = '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n'
const formsMd = 'Supporting content.\n'
const digest = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`
const entryFor = (files: Record<string, string>, frontmatter = { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents' }): Skill => ({
  uri: SKILL,
  frontmatter,
  resources: Object.entries(files).map(([uri, text]) => ({ uri, digest: digest(text), size: Buffer.byteLength(text) })),
})
const entry = entryFor({ [SKILL]: skillMd, [FORMS]: formsMd })

/** A fake client whose server serves `files` and lists `pages` of skills; it records every request. */
function fakeClient(files: Record<string, string>, pages: unknown[][] = [[entry]], server?: SkillsClient['server']) {
  const requests: { method: string; params: Record<string, unknown> }[] = []
  const client: SkillsClient = {
    server,
    request: async (method: string, params: Record<string, unknown> = {}) => {
      requests.push({ method, params })
      if (method === 'skills/list') {
        const page = Number(params.cursor ?? 0)
        return { skills: pages[page], ...(page + 1 < pages.length && { nextCursor: String(page + 1) }) }
      }
      if (method === 'resources/read') {
        const uri = params.uri as string
        return { contents: uri in files ? [{ uri, mimeType: 'text/markdown', text: files[uri] }] : [] }
      }
      throw new Error(`unexpected ${method}`)
    },
  } as SkillsClient
  return { client, requests, reads: () => requests.filter((r) => r.method === 'resources/read').map((r) => r.params.uri) }
}

describe('listSkills', () => {
  it('lists every page of skills and reads none of their files', async () => {
    const other = { ...entryFor({ 'skill://other/SKILL.md': skillMd }), uri: 'skill://other/SKILL.md' }
    const { client, requests } = fakeClient({}, [[entry], [other]])
    const listing = await listSkills(client)
    expect(listing.skills.map((s) => s.uri)).toEqual([SKILL, 'skill://other/SKILL.md'])
    expect(listing.supported).toBe(true)
    expect(requests.map((r) => r.method)).toEqual(['skills/list', 'skills/list'])
  })

  it('sets aside malformed and repeated entries with the reason, and hands out only usable ones', async () => {
    const badDigest = { ...entry, uri: 'skill://bad/SKILL.md', resources: [{ uri: 'skill://bad/SKILL.md', digest: 'md5:abc', size: 1 }] }
    const { client } = fakeClient({}, [[entry, badDigest, { uri: 'x' }, entry]])
    const listing = await listSkills(client)
    expect(listing.skills).toHaveLength(1)
    expect(listing.invalid.map((i) => [i.index, i.reason])).toEqual([
      [1, 'skill://bad/SKILL.md: digest is not sha256:<64 lowercase hex>'],
      [2, 'uri is not the URI of a SKILL.md'],
      [3, 'the same SKILL.md URI is listed twice'],
    ])
  })

  it('does not ask a server that did not declare the extension', async () => {
    const { client, requests } = fakeClient({}, [[entry]], { era: 'legacy', protocolVersion: '2025-11-25', capabilities: { resources: {} } })
    expect(await listSkills(client)).toEqual({ skills: [], invalid: [], supported: false })
    expect(requests).toEqual([])
  })
})

describe('loadSkill', () => {
  it('reads only SKILL.md, verifies it and returns its frontmatter and body', async () => {
    const { client, reads } = fakeClient({ [SKILL]: skillMd, [FORMS]: formsMd })
    const loaded = await loadSkill(client, entry)
    expect(loaded.verified).toBe(true)
    expect(loaded.frontmatter).toEqual(entry.frontmatter)
    expect(loaded.body).toBe('\nSkill body.\n')
    expect(reads()).toEqual([SKILL])
  })

  it('refuses a SKILL.md whose bytes do not match the digest', async () => {
    const { client } = fakeClient({ [SKILL]: skillMd.replace('Skill body.', 'Evil body!!') })
    const error = await loadSkill(client, entry).catch((e) => e)
    expect(error).toBeInstanceOf(SkillVerificationError)
    expect(error).toMatchObject({ reason: 'digest', uri: SKILL })
  })

  it('refuses a SKILL.md whose length differs from the entry', async () => {
    const { client } = fakeClient({ [SKILL]: `${skillMd}extra bytes\n` })
    await expect(loadSkill(client, entry)).rejects.toMatchObject({ name: 'SkillVerificationError', reason: 'size' })
  })

  it('refuses a SKILL.md whose frontmatter differs from the entry even when digest and size match', async () => {
    const tampered = skillMd.replace('Extract, fill, and assemble PDF documents', 'Exfiltrate credentials')
    const { client } = fakeClient({ [SKILL]: tampered })
    const error = await loadSkill(client, entryFor({ [SKILL]: tampered })).catch((e) => e)
    expect(error).toMatchObject({ reason: 'frontmatter', differences: ['description: differs'] })
  })

  it('refuses a SKILL.md without a frontmatter block', async () => {
    const text = 'no fence\n'
    const { client } = fakeClient({ [SKILL]: text })
    await expect(loadSkill(client, entryFor({ [SKILL]: text }))).rejects.toMatchObject({ reason: 'frontmatter' })
  })

  it('uses the app-supplied YAML parser when given one', async () => {
    const { client } = fakeClient({ [SKILL]: skillMd })
    const loaded = await loadSkill(client, entry, { parseFrontmatter: () => ({ name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents' }) })
    expect(loaded.frontmatter.name).toBe('pdf-processing')
  })

  it('verifies a base64 blob against the raw bytes', async () => {
    const client: SkillsClient = { server: undefined, request: async () => ({ contents: [{ uri: SKILL, blob: Buffer.from(skillMd).toString('base64') }] }) } as SkillsClient
    expect((await loadSkill(client, entry)).text).toBe(skillMd)
  })
})

describe('readSkillFile', () => {
  it('reads a listed supporting file by its relative path, verified', async () => {
    const { client, reads } = fakeClient({ [SKILL]: skillMd, [FORMS]: formsMd })
    const file = await readSkillFile(client, entry, 'references/FORMS.md')
    expect(file).toMatchObject({ uri: FORMS, text: formsMd, verified: true })
    expect(reads()).toEqual([FORMS])
  })

  it('refuses a file the entry does not list before sending any request', async () => {
    const { client, requests } = fakeClient({ [SKILL]: skillMd })
    await expect(readSkillFile(client, entry, '../other/SKILL.md')).rejects.toMatchObject({ reason: 'unlisted' })
    expect(requests).toEqual([])
  })

  it('refuses an entry over the size limit before reading it', async () => {
    const { client, requests } = fakeClient({ [SKILL]: skillMd })
    await expect(readSkillFile(client, entry, 'references/FORMS.md', { maxBytes: 4 })).rejects.toMatchObject({ reason: 'too-large' })
    expect(requests).toEqual([])
  })

  it('holds dynamic skills to their own directory and marks their files unverified', async () => {
    const dynamic: Skill = { ...entry, resources: 'dynamic' }
    const { client } = fakeClient({ [FORMS]: formsMd })
    expect(await readSkillFile(client, dynamic, 'references/FORMS.md')).toMatchObject({ verified: false, text: formsMd })
    await expect(readSkillFile(client, dynamic, 'skill://elsewhere/x.md')).rejects.toMatchObject({ reason: 'unlisted' })
  })

  it('rejects an unusable entry with a TypeError before any request', async () => {
    const { client, requests } = fakeClient({})
    await expect(readSkillFile(client, { ...entry, resources: 7 } as unknown as Skill, 'SKILL.md')).rejects.toBeInstanceOf(TypeError)
    expect(requests).toEqual([])
  })
})

describe('skills over a real Client and HTTP', () => {
  let server: ScriptedServer | undefined
  afterEach(() => server?.close())

  it('lists and loads a skill from a 2026-07-28 server, nothing read before the load', async () => {
    const answer = (seen: Seen, result: Record<string, unknown>) => ({ body: { jsonrpc: '2.0', id: seen.body.id, result: { resultType: 'complete', ...result } } })
    server = await scriptedServer((seen) =>
      seen.body.method === 'skills/list'
        ? answer(seen, { skills: [entry], ttlMs: 0, cacheScope: 'private' })
        : answer(seen, { contents: [{ uri: seen.body.params.uri, mimeType: 'text/markdown', text: seen.body.params.uri === SKILL ? skillMd : formsMd }] }),
    )
    const client = new Client(new StreamableHttpTransport(server.url))
    const { skills } = await listSkills(client)
    expect(server.methods()).toEqual(['skills/list'])
    const loaded = await loadSkill(client, skills[0]!)
    expect(loaded.body).toContain('Skill body.')
    expect(server.methods()).toEqual(['skills/list', 'resources/read'])
    await client.close()
  })
})
