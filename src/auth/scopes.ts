// Scope strings as lists; apart because the session, the discovery context and the token step all merge scopes.

export const split = (scope: string | undefined): string[] => (scope ? scope.split(' ').filter(Boolean) : [])

export const union = (...lists: string[][]): string[] => [...new Set(lists.flat())]
