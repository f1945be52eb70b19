/** Whether `uri` is `watched` or a sub-resource of it (the spec lets a server report either). */
export const covers = (watched: string, uri: string): boolean => uri === watched || uri.startsWith(watched.endsWith('/') ? watched : `${watched}/`)
