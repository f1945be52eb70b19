// Times several contenders on the same work, alternating them in small blocks and rotating who goes first each
// round, so machine noise (other processes, GC, CPU frequency) lands on all of them alike.
import { median } from './stats.mjs'

/**
 * `contenders` maps a name to an async function doing one operation. Returns, per name, every per-operation
 * time in ms (`times`) and the median of each round (`roundMedians`).
 */
export async function interleave(contenders, { rounds, perRound, block }) {
  const names = Object.keys(contenders)
  const out = Object.fromEntries(names.map((name) => [name, { times: [], roundMedians: [] }]))
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length])
    const times = Object.fromEntries(names.map((name) => [name, []]))
    for (let done = 0; done < perRound; done += block) {
      for (const name of order) {
        const op = contenders[name]
        for (let i = 0; i < Math.min(block, perRound - done); i++) {
          const start = performance.now()
          await op()
          times[name].push(performance.now() - start)
        }
      }
    }
    for (const name of names) {
      out[name].times.push(...times[name])
      out[name].roundMedians.push(median(times[name]))
    }
  }
  return out
}
