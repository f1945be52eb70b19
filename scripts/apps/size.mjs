// Bytes of nanomcp/apps beside the core (min+gzip, zod bundled): the bundle of core + apps minus the core alone,
// measured as scripts/size.mjs measures every row.
import { resolve } from 'node:path'
import { measure } from '../size.mjs'

const core = JSON.stringify(resolve('src/index.ts'))
const apps = JSON.stringify(resolve('src/apps/index.ts'))
const base = `export { Client, StreamableHttpTransport, createMcp } from ${core}`
const alone = await measure(base)
const both = await measure(`${base}\nexport { mountApp, modelVisible, appCallable, UI_EXTENSION, permissiveCsp } from ${apps}`)
console.log(`nanomcp/apps beside Client + createMcp: +${both.gzip - alone.gzip} B min+gzip (+${both.min - alone.min} B min); budget 6144 B`)

// The two other hosts, measured the same way (each with all it depends on bundled), for comparison.
if (process.argv.includes('--others')) {
  const { fileURLToPath } = await import('node:url')
  const bridge = JSON.stringify(fileURLToPath(import.meta.resolve('@modelcontextprotocol/ext-apps/app-bridge')))
  const mcpUi = JSON.stringify(fileURLToPath(import.meta.resolve('@mcp-ui/client')))
  const react = (id) => id === 'react' || id.startsWith('react/') || id === 'react-dom' || id.startsWith('react-dom/')
  console.log(`AppBridge (ext-apps), zod bundled: ${(await measure(`export { AppBridge, PostMessageTransport } from ${bridge}`)).gzip} B min+gzip`)
  console.log(`@mcp-ui/client AppRenderer, React external: ${(await measure(`export { AppRenderer } from ${mcpUi}`, react)).gzip} B min+gzip`)
}
