// The skills helpers against the official v2 SDK server serving skills with its own SEP-2640 implementation
// (SkillCatalog over in-memory files), through the real Client and StreamableHttpTransport.
import { createServer, type Server } from 'node:http'
import { once } from 'node:events'
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server'
import { SkillCatalog, memorySkillFiles } from '@modelcontextprotocol/server/ext/skills'
import { toNodeHandler } from '@modelcontextprotocol/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../client/client'
import { StreamableHttpTransport } from '../transport/streamable-http'
import { listSkills, loadSkill, readSkillFile } from './skills'

const files = {
  'pdf-processing/SKILL.md': '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  owner: docs-team\n---\n\n# PDF\nSee references/FORMS.md.\n',
  'pdf-processing/references/FORMS.md': 'Forms, field by field.\n',
}

let http: Server
let url: string
const reads: string[] = []

beforeAll(async () => {
  const catalog = await SkillCatalog.load(memorySkillFiles(files))
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'skills-server', version: '1.0.0' }, { capabilities: { resources: {} } })
    catalog.attach(server)
    return server
  })
  // Records which files are read, as the server sees them.
  const recording = {
    fetch: async (request: Request) => {
      const message = request.method === 'POST' ? await request.clone().json().catch(() => undefined) : undefined
      if (message?.method === 'resources/read') reads.push(message.params.uri)
      return handler.fetch(request)
    },
  }
  http = createServer(toNodeHandler(recording))
  http.listen(0, '127.0.0.1')
  await once(http, 'listening')
  url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`
})
afterAll(() => {
  http?.closeAllConnections()
  http?.close()
})

describe('skills from the official SDK server', () => {
  it('lists without reading, loads SKILL.md verified, then a supporting file on request', async () => {
    const client = new Client(new StreamableHttpTransport(url))
    const { skills, invalid } = await listSkills(client)
    expect(invalid).toEqual([])
    expect(skills.map((s) => s.frontmatter.name)).toEqual(['pdf-processing'])
    expect(reads).toEqual([])
    const loaded = await loadSkill(client, skills[0]!)
    expect(loaded.frontmatter).toEqual({ name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', metadata: { owner: 'docs-team' } })
    expect(loaded.body).toContain('# PDF')
    const forms = await readSkillFile(client, skills[0]!, 'references/FORMS.md')
    expect(forms).toMatchObject({ text: 'Forms, field by field.\n', verified: true })
    expect(reads).toEqual([skills[0]!.uri, forms.uri])
    await client.close()
  })
})
