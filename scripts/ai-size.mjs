#!/usr/bin/env node
// What nanomcp/ai adds beside the core an app already ships (Client, StreamableHttpTransport, createMcp), min+gzip,
// with `ai` left out (an optional peer: the app bundles its own). Measured as size.mjs measures: the bundle of core
// + ai minus the bundle of the core alone (what loads at once; the part loaded on demand is printed beside it). `--check` enforces the budget. @ai-sdk/mcp, the AI SDK's own MCP client,
// is printed beside it, measured the same way (`ai` and zod left out, as an AI SDK app ships both already).
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { measure } from './size.mjs'

const BUDGET = 3 * 1024
const lib = JSON.stringify(resolve('src/index.ts'))
const ai = JSON.stringify(resolve('src/ai/index.ts'))
const peer = (id) => id === 'ai' || id.startsWith('ai/')
const core = `export { Client, StreamableHttpTransport, createMcp } from ${lib}`
const base = await measure(core, peer)
const both = await measure(`${core}\nexport * from ${ai}`, peer)
const gzip = both.gzip - base.gzip
// Answering a sampling request is a chunk loaded on demand (the first request waits for it, and for the model).
const later = `   + ${both.lazy.gzip - base.lazy.gzip} B gzip loaded on demand`
console.log(`${'nanomcp/ai beside the core (ai external)'.padEnd(48)} min ${String(both.min - base.min).padStart(7)} B   min+gzip ${String(gzip).padStart(6)} B${later}  ${gzip > BUDGET ? 'OVER the' : '(budget'} ${BUDGET / 1024} KB${gzip > BUDGET ? ' budget' : ')'}`)
const official = JSON.stringify(fileURLToPath(import.meta.resolve('@ai-sdk/mcp')))
const theirs = await measure(`export { createMCPClient } from ${official}`, (id) => peer(id) || id === 'zod' || id.startsWith('zod/'))
const whole = await measure(`export { createMCPClient } from ${official}`)
console.log(`${'@ai-sdk/mcp createMCPClient (ai, zod external)'.padEnd(48)} min ${String(theirs.min).padStart(7)} B   min+gzip ${String(theirs.gzip).padStart(6)} B`)
console.log(`${'@ai-sdk/mcp createMCPClient (all bundled)'.padEnd(48)} min ${String(whole.min).padStart(7)} B   min+gzip ${String(whole.gzip).padStart(6)} B`)
if (gzip > BUDGET && process.argv.includes('--check')) process.exit(1)
