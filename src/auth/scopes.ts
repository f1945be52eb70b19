// Scope strings as lists: the session and the token step both merge what was asked with what was granted.

export const split = (scope: string | undefined): string[] => (scope ? scope.split(' ').filter(Boolean) : [])

export const union = (...lists: string[][]): string[] => [...new Set(lists.flat())]
