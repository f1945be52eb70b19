// Preload for the conformance CLI on Node 20: `node --import ./node20-register.mjs <cli>`.
// The suite's bundle imports `globSync` from `fs` by name (Node 22+); only its `tier-check` command uses it,
// but a missing named export of a built-in fails at link time, so the whole CLI would not start.
import { register } from 'node:module'

register('./node20-hooks.mjs', import.meta.url)
