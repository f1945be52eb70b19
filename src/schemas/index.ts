// `nanomcp/schemas`: the zod (zod/mini) schemas of every MCP message nanomcp reads, for apps that check
// messages of their own or build forms from them. The client uses the same schemas on every result.
export { AnnotationsSchema, IconSchema, ImplementationSchema, RoleSchema } from './base'
export * from './content'
export * from './entities'
export * from './results'
export * from './requests'
export * from './notifications'
export * from './tasks'
export { parseResult, resultSchemas, type ResultMethod } from './methods'
export { parseWith, describe, formatPath } from './check'
export { extensionMethod } from './method-map'
export type * from './types'
export type * from './method-map'
