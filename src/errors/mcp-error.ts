/**
 * Base class of every error nanomcp throws, so an app can tell ours from its own with one `instanceof`.
 * Never thrown itself.
 */
export class McpError extends Error {
  // Spelled out in every class, not taken from `new.target.name`: minifiers rename classes, and an app that
  // logs `err.name` or `String(err)` must read `HttpError`, not `e`. A subclass without its own keeps this one.
  override name = 'McpError'

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}
