import { McpError } from './mcp-error'

/**
 * Thrown by `mountApp` when its `sandbox` URL cannot isolate the app: not http(s), or on the page's own origin
 * (an app there could script the host page). Carries the URL as given.
 */
export class AppSandboxError extends McpError {
  override readonly name = 'AppSandboxError'
  declare readonly url: string

  constructor(url: string, message: string) {
    super(message)
    this.url = url
  }
}
