import { CodeLoadError } from '../errors/code-load-error'
import { abortable } from './http'

/**
 * Code loaded on demand: paths few apps take (the HTTP+SSE transport, x-mcp-header validation, the outputSchema
 * validator, tasks, input-request rounds, the -32042 retry), or take where a request already waits for a person or
 * a poll interval, so the core bundle leaves them out. The wait stays within the operation's `signal`; a chunk that
 * cannot be fetched fails only that operation, with a CodeLoadError naming `part` (never a NetworkError, which
 * would blame the MCP server).
 */
export function load<T>(part: string, importer: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return abortable(
    importer().catch((cause: unknown) => {
      throw new CodeLoadError(part, cause)
    }),
    signal,
  )
}
