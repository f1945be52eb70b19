#!/usr/bin/env node
// Runs one benchmark part in a fresh process (`node --expose-gc part.mjs <name>`, input JSON on stdin) and
// prints its result as one JSON line, so no part inherits another's heap, JIT state or open connections.
const PARTS = new Set(['bundle-size', 'round-trips', 'overhead', 'large-lists', 'streams', 'browser'])

const name = process.argv[2]
if (!PARTS.has(name)) {
  console.error(`unknown part "${name}"; known: ${[...PARTS].join(', ')}`)
  process.exit(2)
}
let input = ''
for await (const chunk of process.stdin) input += chunk
const { run } = await import(`./${name}.mjs`)
const result = await run(JSON.parse(input || '{}'))
process.stdout.write(`\n${JSON.stringify(result)}\n`)
// Keep-alive sockets and timers of the clients under test must not keep the part alive.
process.exit(0)
