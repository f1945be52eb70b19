import { NetworkError } from '../errors/network-error'
import { abortable } from './http'

/**
 * Code loaded on demand (the client's handshake era, listen()'s machine, tasks, input requests, the outputSchema
 * validator, the -32042 retry; the transport's session stream, stream resumption, HTTP+SSE and x-mcp-header
 * validation): paths many apps never take, or take where a request already waits (a poll interval, a user,
 * a server's `retry`), so the core bundle leaves them out. The wait for the chunk stays within the operation's
 * `signal`; a chunk that cannot be fetched (offline, or gone after a deploy) fails only that operation, with a
 * NetworkError whose `cause` is the bundler's or the browser's error, rather than a bare TypeError. `what` names
 * the code in the message: "Could not reach nanomcp's <what> (loaded on demand)".
 */
export function load<T>(what: string, importer: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return abortable(
    importer().catch((cause: unknown) => {
      throw new NetworkError(`nanomcp's ${what} (loaded on demand)`, cause, false)
    }),
    signal,
  )
}
