// nanomcp/apps: MCP Apps (`io.modelcontextprotocol/ui`) in any web page. Loaded only by apps that import it.
export { mountApp } from './mount-app'
export { modelVisible, appCallable, uiResourceUri } from './visibility'
export { UI_EXTENSION, APP_MIME, APP_PROTOCOL } from './extension'
export { permissiveCsp, buildCsp } from './csp'
export { AppResourceError, type AppResourceProblem } from '../errors/app-resource-error'
export { AppSandboxError } from '../errors/app-sandbox-error'
export { AppProtocolError } from '../errors/app-protocol-error'
export type * from './types'
