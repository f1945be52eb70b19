import { ProtocolError } from '../../errors/protocol-error'
import { contentType } from '../http'
import { httpError } from '../response-errors'

export const SSE_ACCEPT = { Accept: 'text/event-stream' }

/** A GET's answer must be an event stream; anything else is a typed error (and its body is let go). */
export async function expectStream(response: Response, max: number): Promise<void> {
  if (!response.ok) throw await httpError(response, max)
  const type = contentType(response)
  if (type === 'text/event-stream') return
  await response.body?.cancel()
  throw new ProtocolError('content-type', `Expected text/event-stream from GET, got "${type}"`)
}
