// The subpaths an app adds to the core (nanomcp/apps, nanomcp/ai), each beside the packages that do the same job.
// A subpath's figure is what it adds: bundle(core + subpath) minus bundle(core), both min+gzip with zod bundled,
// where the core is what an app that hosts apps or hands tools to a model already ships (`Client`,
// `StreamableHttpTransport`, `createMcp`), so what the subpath shares with it is not counted twice.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
import { measure } from './bundle.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const file = (specifier) => JSON.stringify(fileURLToPath(import.meta.resolve(specifier)))
const leaveOut = (...names) => (id) => names.some((name) => id === name || id.startsWith(`${name}/`))
const core = `export { Client, StreamableHttpTransport, createMcp } from ${JSON.stringify(resolve(root, 'src/index.ts'))}`

/** `entry`: the subpath's source; `budget`: bytes it may add; `external`: what the app brings itself. */
export const SUBPATHS = [
  {
    name: 'nanomcp/apps',
    entry: 'src/apps/index.ts',
    budget: 6 * 1024,
    peers: [
      // A host needs the bridge and the transport that carries it to the frame.
      ['@modelcontextprotocol/ext-apps 2.0.4 AppBridge, zod bundled', `export { AppBridge, PostMessageTransport } from ${file('@modelcontextprotocol/ext-apps/app-bridge')}`],
      ['@modelcontextprotocol/ext-apps 2.0.4 AppBridge, zod external', `export { AppBridge, PostMessageTransport } from ${file('@modelcontextprotocol/ext-apps/app-bridge')}`, leaveOut('zod')],
      ['@mcp-ui/client 7.1.1 AppRenderer, React external', `export { AppRenderer } from ${file('@mcp-ui/client')}`, leaveOut('react', 'react-dom')],
    ],
  },
  {
    name: 'nanomcp/ai',
    entry: 'src/ai/index.ts',
    budget: 3 * 1024,
    external: leaveOut('ai'),
    note: '`ai` external',
    peers: [
      ['@ai-sdk/mcp 2.0.99 createMCPClient, `ai` external', `export { createMCPClient } from ${file('@ai-sdk/mcp')}`, leaveOut('ai')],
      // An AI SDK app ships zod already (the SDK's tool schemas use it).
      ['@ai-sdk/mcp 2.0.99 createMCPClient, `ai` and zod external', `export { createMCPClient } from ${file('@ai-sdk/mcp')}`, leaveOut('ai', 'zod')],
    ],
  },
]

/**
 * Each subpath as `{ name, present, added, total, budget, note, peers }`; `present` is false (and nothing is
 * measured) while its entry file does not exist, and `error` says why one that exists could not be bundled. Peers are whole bundles: each is a client of its own.
 */
export async function measureSubpaths(subpaths = SUBPATHS) {
  const rows = []
  for (const { name, entry, budget, external, note, peers } of subpaths) {
    const measuredPeers = []
    for (const [label, code, leave] of peers) measuredPeers.push({ label, ...(await measure(code, leave)) })
    if (!existsSync(resolve(root, entry))) {
      rows.push({ name, present: false, budget, note, peers: measuredPeers })
      continue
    }
    try {
      const base = await measure(core, external)
      const total = await measure(`${core}\nexport * from ${JSON.stringify(resolve(root, entry))}`, external)
      rows.push({ name, present: true, added: total.gzip - base.gzip, total, budget, note, peers: measuredPeers })
    } catch (error) {
      // A subpath the bundler cannot build is a failure of its row, said as such, not a crash of the whole table.
      rows.push({ name, present: true, error: stripVTControlCharacters(error.message).split('\n').filter(Boolean).slice(0, 2).join(' '), budget, note, peers: measuredPeers })
    }
  }
  return rows
}
