import { McpError } from './mcp-error'

/**
 * Thrown when client and server share no protocol revision: a `-32022` rejection that lists only revisions
 * nanomcp does not know, a second `-32022` after the one allowed retry, or a handshake answered with a revision
 * outside `LEGACY_VERSIONS` (the session is ended and the transport closed first).
 * Carries what the server offered and what nanomcp supports.
 */
export class UnsupportedVersionError extends McpError {
  override readonly name = 'UnsupportedVersionError'
  readonly offered: readonly string[]
  readonly supported: readonly string[]

  constructor(offered: readonly string[], supported: readonly string[], detail?: string) {
    super(
      `${detail ? `${detail}: ` : ''}the server offers ${offered.length ? offered.join(', ') : 'no revision'}; ` +
        `nanomcp supports ${supported.join(', ')}`,
    )
    this.offered = offered
    this.supported = supported
  }
}
