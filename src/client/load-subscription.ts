// The dynamic import that makes bundlers split listen()'s machine (subscription.ts) out of the core, alone in a
// module of its own so that tests can stand in for a chunk that fails to load or is slow to arrive.
export const loadSubscription = (): Promise<typeof import('./subscription')> => import('./subscription')
