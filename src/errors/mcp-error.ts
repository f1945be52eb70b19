/**
 * Base class of every error nanomcp throws, so an app can tell ours from its own with one `instanceof`.
 * Never thrown itself.
 */
export class McpError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}
