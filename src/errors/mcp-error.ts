/**
 * Base class of every error nanomcp throws, so an app can tell ours from its own with one `instanceof`.
 * Never thrown itself.
 */
export class McpError extends Error {
  // Spelled out in every class, not taken from `new.target.name`: minifiers rename classes, and an app that
  // logs `err.name` or `String(err)` must read `HttpError`, not `e`. A subclass without its own keeps this one.
  override name = 'McpError'
  // Subclasses `declare` the fields their constructor sets: a plain declaration is emitted as a field defined
  // undefined first, bytes every app ships for nothing (the same holds in the client's and transport's classes).

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}
