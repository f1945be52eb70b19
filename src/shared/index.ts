// nanomcp/shared: one MCP client for every tab of an origin. Its own entry point, so apps that do not share
// pay nothing for it.
export { createSharedMcp } from './tab'
export { SharedError } from './shared-error'
export type { SharedErrorReason } from './shared-error'
export type * from './types'
