// What an app pays, min+gzip with every dependency bundled, through scripts/size.mjs's measure(): the same
// Vite build (minify on, default client resolve conditions, which include `browser`) for both clients.
import { fileURLToPath } from 'node:url'
import { measure } from '../size.mjs'

const lib = JSON.stringify(fileURLToPath(new URL('../../src/index.ts', import.meta.url)))
// The entry files live in a temporary directory, where a bare specifier would not resolve: name the file the
// package's `import` condition points at; its own imports then resolve from node_modules with the browser condition.
const official = JSON.stringify(fileURLToPath(import.meta.resolve('@modelcontextprotocol/client')))

export const CASES = [
  ['nanomcp', 'Client + StreamableHttpTransport', `export { Client, StreamableHttpTransport } from ${lib}`],
  ['nanomcp', '+ createMcp', `export { Client, StreamableHttpTransport, createMcp } from ${lib}`],
  ['nanomcp', '+ SseTransport', `export { Client, StreamableHttpTransport, SseTransport } from ${lib}`],
  [
    'official',
    'Client + StreamableHTTPClientTransport',
    `export { Client } from ${official}\nexport { StreamableHTTPClientTransport } from ${official}`,
  ],
]

export async function run() {
  const rows = []
  for (const [client, label, code] of CASES) rows.push({ client, label, ...(await measure(code)) })
  return rows
}
