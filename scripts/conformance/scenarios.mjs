// What each conformance scenario asks a client to do, as an app would do it. Both adapters (nanomcp and the official
// client) run this same plan, so their scores differ only by what the libraries put on the wire.
// `api` is the adapter's thin layer over its library: connect, listTools, callTool, listResources, readResource,
// listPrompts, getPrompt (lists resolve to arrays), listSkills and loadSkill (verifies, then reads the skill's files).

/** Client capabilities the app declares; request-metadata scores the presence of all three. */
export function capabilitiesFor(scenario) {
  const elicitation = { form: { applyDefaults: true } }
  return scenario === 'request-metadata' ? { roots: {}, sampling: {}, elicitation } : { elicitation }
}

/**
 * The "user" behind the app: accepts every form, leaving fields that have a schema default untouched (pre-filling
 * them is the client's duty, which elicitation-sep1034-client-defaults scores) and filling the others plainly.
 */
export function answerInputRequest(method, params = {}) {
  if (method === 'elicitation/create') {
    const content = {}
    for (const [key, field] of Object.entries(params.requestedSchema?.properties ?? {})) {
      if (field && typeof field === 'object' && 'default' in field) continue
      content[key] = field?.type === 'boolean' ? true : field?.type === 'number' || field?.type === 'integer' ? 0 : ''
    }
    return { action: 'accept', content }
  }
  if (method === 'roots/list') return { roots: [] }
  if (method === 'sampling/createMessage') {
    return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'conformance-adapter' }
  }
  throw new Error(`no answer for input request ${method}`)
}

const plans = {
  initialize: async (api) => {
    await api.connect()
    await api.listTools()
  },
  tools_call: async (api) => {
    await api.listTools()
    await api.callTool('add_numbers', { a: 5, b: 3 })
  },
  'elicitation-sep1034-client-defaults': async (api) => {
    await api.listTools()
    await api.callTool('test_client_elicitation_defaults', {})
  },
  'sse-retry': async (api) => {
    await api.listTools()
    await api.callTool('test_reconnection', {})
  },
  'request-metadata': async (api) => {
    await api.listTools()
  },
  'sep-2322-client-request-state': async (api) => {
    await api.listTools()
    for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated', 'test_mrtr_no_result_type']) {
      await api.callTool(name, {})
    }
  },
  'http-standard-headers': async (api) => {
    const [tool] = await api.listTools()
    if (tool) await api.callTool(tool.name, {})
    const [resource] = await api.listResources()
    if (resource) await api.readResource(resource.uri)
    const [prompt] = await api.listPrompts()
    if (prompt) await api.getPrompt(prompt.name)
  },
  'http-custom-headers': async (api, context) => {
    await api.listTools()
    for (const call of context?.toolCalls ?? []) await api.callTool(call.name, call.arguments)
  },
  'http-invalid-tool-headers': async (api) => {
    // The library is expected to have dropped the tools whose x-mcp-header declarations are invalid.
    for (const tool of await api.listTools()) await api.callTool(tool.name, { region: 'us-west1' })
  },
  'json-schema-ref-no-deref': async (api) => {
    await api.listTools()
  },
  'json-schema-2020-12-preservation': async (api) => {
    const tools = await api.listTools()
    const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool')
    if (!focal) throw new Error('json_schema_2020_12_tool is not listed')
    await api.callTool('json_schema_echo', { schema: focal.inputSchema })
  },
}

/**
 * Skills (SEP-2640): the app lists the server's skills and, when it decides to use one, loads it; a skill that
 * fails verification is refused (the library's SkillVerificationError) and the app goes on without it.
 */
async function useSkills(api) {
  for (const skill of await api.listSkills()) {
    try {
      await api.loadSkill(skill)
    } catch (error) {
      if (!/Verification/.test(error?.name ?? '')) throw error
      console.log(`skill ${skill.uri} refused: ${error.name}: ${error.message}`)
    }
  }
}
Object.assign(plans, {
  // Listing is not loading: no file of a skill may be read before the app asks for it.
  'sep-2640-client-no-prefetch': async (api) => {
    await api.listSkills()
  },
  'sep-2640-client-verify-digest': useSkills,
  'sep-2640-client-verify-size': useSkills,
  'sep-2640-client-verify-frontmatter': useSkills,
})

/** auth/*: connect and use the server like any app would. */
async function defaultPlan(api) {
  // An app connects first (the official adapter already has, before the plan starts): on a protected server
  // this is the request that meets the 401 and signs in.
  await api.connect()
  const tools = await api.listTools()
  if (tools.some((tool) => tool.name === 'test-tool')) await api.callTool('test-tool', {})
}

export async function runScenario(scenario, api, context) {
  await (plans[scenario] ?? defaultPlan)(api, context)
}

/** Shared CLI frame: reads the suite's contract from argv/env, runs the plan, reports one outcome line. */
export async function main(makeApi) {
  const url = process.argv.at(-1)
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? ''
  const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : undefined
  const started = performance.now()
  // Finish (or fail with the library's own typed error) before the suite kills the process at its --timeout.
  const budget = Number(process.env.CONFORMANCE_CLIENT_TIMEOUT_MS ?? 30_000) - 5_000
  const remaining = () => Math.max(1_000, Math.round(budget - (performance.now() - started)))
  let api
  try {
    if (!url || !/^https?:\/\//.test(url)) throw new Error(`expected the server URL as the last argument, got ${url}`)
    const log = (line) => console.log(`${String(Math.round(performance.now() - started)).padStart(6)} ms ${line}`)
    api = await makeApi({ url, scenario, context, log, remaining })
    await runScenario(scenario, api, context)
    await api.close()
    console.log(`adapter: ok ${scenario} ${Math.round(performance.now() - started)} ms`)
    process.exit(0)
  } catch (error) {
    console.error(`adapter: failed ${scenario}: ${error?.name ?? 'Error'}: ${error?.message ?? error}`)
    // fetch hides the socket-level reason two or three causes deep (undici: TypeError <- SocketError [code]).
    for (let cause = error?.cause, depth = 0; cause && depth < 5; cause = cause.cause, depth++) {
      console.error(`  cause: ${cause.name ?? 'Error'}: ${cause.message ?? cause}${cause.code ? ` [${cause.code}]` : ''}`)
    }
    await api?.close().catch(() => {})
    process.exit(1)
  }
}
