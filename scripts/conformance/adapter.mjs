// nanomcp under the conformance suite's adapter contract: `node adapter.mjs <server-url>` with
// MCP_CONFORMANCE_SCENARIO / MCP_CONFORMANCE_CONTEXT in the environment. It runs the BUILT library (dist/) through
// its public API the way an app would; scenarios.mjs only decides what to call. The era is always negotiated by the
// library (MCP_CONFORMANCE_PROTOCOL_VERSION is ignored on purpose), so 2025-era scenarios also prove the fallback.
// Every message in and out is printed (the suite keeps it as stdout.txt next to the scenario's checks).
import { Client, StreamableHttpTransport, listSkills, loadSkill, readSkillFile } from '../../dist/index.js'
import { codeFlowAuth } from './code-flow-auth.mjs'
import { machineAuth } from './machine-auth.mjs'
import { answerInputRequest, capabilitiesFor, main } from './scenarios.mjs'

await main(async ({ url, scenario, context, log, remaining }) => {
  const auth = (await machineAuth(scenario, context)) ?? codeFlowAuth(scenario, context, log)
  const client = new Client(new StreamableHttpTransport(url, { auth }), {
    clientInfo: { name: 'nanomcp-conformance-adapter', version: '1.0.0' },
    capabilities: capabilitiesFor(scenario),
    onInputRequest: (requests) =>
      Object.fromEntries(Object.entries(requests).map(([key, r]) => [key, answerInputRequest(r.method, r.params)])),
    // This app can show forms, so it lets older servers ask for them too.
    legacyElicitation: true,
    timeout: remaining(),
    onTrace: (event) => log(`${event.direction === 'out' ? '→' : '←'} [${event.era ?? '?'}] ${JSON.stringify(event.message)}`),
    onNotification: (notification) => log(`notification ${notification.method}`),
  })
  /** Every page of a list, as an app showing the whole list would fetch it. */
  const list = async (method, key) => {
    const items = []
    let cursor
    for (let page = 0; page < 100; page++) {
      const result = await client.request(method, cursor ? { cursor } : {}, { timeout: remaining() })
      items.push(...(result[key] ?? []))
      cursor = result.nextCursor
      if (!cursor) break
    }
    return items
  }
  return {
    connect: async () => {
      const server = await client.connect({ timeout: remaining() })
      log(`connected: era=${client.era} version=${client.protocolVersion} server=${JSON.stringify(server.serverInfo)}`)
    },
    listTools: () => list('tools/list', 'tools'),
    callTool: (name, args) => client.request('tools/call', { name, arguments: args }, { timeout: remaining() }),
    listResources: () => list('resources/list', 'resources'),
    readResource: (uri) => client.request('resources/read', { uri }, { timeout: remaining() }),
    listPrompts: () => list('prompts/list', 'prompts'),
    getPrompt: (name) => client.request('prompts/get', { name }, { timeout: remaining() }),
    listSkills: async () => (await listSkills(client, { timeout: remaining() })).skills,
    // Loading verifies SKILL.md (size, digest, frontmatter) before the app sees it; then the app reads the rest.
    loadSkill: async (skill) => {
      const loaded = await loadSkill(client, skill, { timeout: remaining() })
      const others = skill.resources === 'dynamic' ? [] : skill.resources.filter((r) => r.uri !== skill.uri)
      for (const file of others) await readSkillFile(client, skill, file.uri, { timeout: remaining() })
      return loaded
    },
    close: () => client.close(),
  }
})
