// Loader hook (see node20-register.mjs): gives the conformance bundle, and only it, an `fs` that also exports
// `globSync`. Everything else keeps the real `fs`: the shim is chosen by the importer's URL.
const shim = 'data:text/javascript,' + encodeURIComponent(
  [
    "import fs from 'node:fs'",
    "export * from 'node:fs'",
    'export default fs',
    "export function globSync() { throw new Error('fs.globSync needs Node 22 (only conformance tier-check uses it)') }",
  ].join('\n'),
)

export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
    return { url: shim, shortCircuit: true }
  }
  return next(specifier, context)
}
