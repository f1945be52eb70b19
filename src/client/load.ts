import { NetworkError } from '../errors/network-error'
import { abortable } from '../transport/http'

/**
 * Code the client loads on demand (the handshake era, tasks, input requests): paths many apps never take, or take
 * where a request already waits (a poll interval, a user), so the core bundle leaves them out. The wait for the
 * chunk stays within the request's `signal`; a chunk that cannot be fetched (offline, or gone after a deploy)
 * fails only that request, with a NetworkError whose `cause` is the bundler's or the browser's error, rather than
 * a bare TypeError. `what` names the code in the message: "Could not reach nanomcp's <what> (loaded on demand)".
 */
export function load<T>(what: string, importer: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return abortable(
    importer().catch((cause: unknown) => {
      throw new NetworkError(`nanomcp's ${what} (loaded on demand)`, cause, false)
    }),
    signal,
  )
}
