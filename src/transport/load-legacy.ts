// The dynamic import that makes bundlers split the handshake era's stream code (legacy/) out of the core, alone in a
// module of its own so that tests can stand in for a chunk that fails to load or is slow to arrive.
export const loadLegacyStreams = (): Promise<typeof import('./legacy')> => import('./legacy')
