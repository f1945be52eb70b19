import { McpError } from './mcp-error'

export type AppResourceProblem = 'no-ui' | 'uri' | 'mime' | 'content' | 'size' | 'csp'

/**
 * A tool's app cannot be shown because of its resource. Thrown by `mountApp` for a tool without a UI (`no-ui`) or
 * a `resourceUri` that is not `ui://` (`uri`); put in `$state.error` when the resource read has the wrong MIME type
 * (`mime`), neither `text` nor `blob` (`content`), or HTML over `maxHtmlSize` (`size`), or a CSP domain that is no plain source (`csp`: quotes, `;`, whitespace, keywords). Carries the problem and
 * the URI (when there is one).
 */
export class AppResourceError extends McpError {
  override readonly name = 'AppResourceError'
  declare readonly problem: AppResourceProblem
  declare readonly uri: string | undefined

  constructor(problem: AppResourceProblem, message: string, uri?: string) {
    super(message)
    this.problem = problem
    this.uri = uri
  }
}
