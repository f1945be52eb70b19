// The official client (@modelcontextprotocol/client) under the suite's adapter contract, running the same plan as
// adapter.mjs: it reproduces the anchor scores in anchor.json and is the baseline for benchmarks.
// ADAPTER_NEGOTIATION=version (default) follows the suite's upstream rule: a 2026-07-28 run pins the modern era,
// anything older uses the initialize handshake. ADAPTER_NEGOTIATION=auto probes with server/discover and falls back,
// which is what nanomcp always does.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills'
import { answerInputRequest, capabilitiesFor, main } from './scenarios.mjs'

await main(async ({ url, scenario, log, remaining }) => {
  const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25'
  const negotiation = process.env.ADAPTER_NEGOTIATION ?? 'version'
  const mode = negotiation === 'auto' ? 'auto' : version === '2026-07-28' ? { pin: version } : 'legacy'
  const capabilities = capabilitiesFor(scenario)
  const client = new Client({ name: 'conformance-official-adapter', version: '1.0.0' }, { capabilities, versionNegotiation: { mode } })
  // The SDK refuses a handler for a capability the client did not declare.
  const handled = { elicitation: 'elicitation/create', roots: 'roots/list', sampling: 'sampling/createMessage' }
  for (const [capability, method] of Object.entries(handled)) {
    if (capability in capabilities) client.setRequestHandler(method, async (request) => answerInputRequest(method, request.params))
  }
  const transport = new StreamableHTTPClientTransport(new URL(url))
  await client.connect(transport, { timeout: remaining() })
  log(`connected: era=${client.getProtocolEra?.()} version=${client.getNegotiatedProtocolVersion?.()}`)
  const t = () => ({ timeout: remaining() })
  return {
    connect: async () => {},
    listTools: async () => (await client.listTools(undefined, t())).tools,
    callTool: (name, args) => client.callTool({ name, arguments: args }, t()),
    listResources: async () => (await client.listResources(undefined, t())).resources,
    readResource: (uri) => client.readResource({ uri }, t()),
    listPrompts: async () => (await client.listPrompts(undefined, t())).prompts,
    getPrompt: (name) => client.getPrompt({ name }, t()),
    listSkills: async () => (await new SkillsClient(client).list(undefined, t())).skills,
    loadSkill: async (skill) => {
      const skills = new SkillsClient(client)
      const loaded = await skills.read(skill, undefined, t())
      const others = skill.resources === 'dynamic' ? [] : skill.resources.filter((r) => r.uri !== skill.uri)
      for (const file of others) await skills.read(skill, file.uri, t())
      return loaded
    },
    close: () => client.close(),
  }
})
