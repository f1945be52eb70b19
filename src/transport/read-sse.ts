import { ProtocolError } from '../errors/protocol-error'
import { createSseDecoder, type SseEvent } from './sse-decoder'
import { createChunkDecoder } from './utf8-chunks'

/** What a stream remembers across reconnections: the last event id and the server's `retry` delay. */
export interface StreamCursor {
  lastEventId?: string
  retry?: number
}

/**
 * Reads an SSE body until it ends or `onEvent` returns true (then the body is cancelled). `onEvent` gets every
 * dispatched event in order, after the cursor has moved. One event may not exceed `maxEventBytes`: a listen
 * stream never ends, so the limit is per event rather than per body. Resolves whether the stream ended on its
 * own (false) or was stopped (true). Bytes that are not UTF-8 become U+FFFD, as in EventSource.
 */
export async function readSseEvents(
  body: ReadableStream<Uint8Array> | null,
  maxEventBytes: number,
  cursor: StreamCursor,
  onEvent: (event: SseEvent) => boolean | void,
): Promise<boolean> {
  let overflow = false
  let stopped = false
  // Events go to onEvent as the decoder completes them, with no list between: on a stream of small events that
  // list (and the copy taken of it per chunk) was a cost of its own.
  const decoder = createSseDecoder(
    (event) => {
      if (event.id !== undefined) cursor.lastEventId = event.id
      return (stopped = onEvent(event) === true)
    },
    (retry) => void (cursor.retry = retry),
    () => void (overflow = true),
    maxEventBytes,
  )
  if (!body) return false
  const reader = body.getReader()
  const text = createChunkDecoder()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      decoder.feed(text(value))
      if (stopped) return true
      if (overflow) throw new ProtocolError('too-large', `An SSE event exceeds the limit of ${maxEventBytes} bytes`, { limit: maxEventBytes })
      if (done) {
        decoder.end()
        return false
      }
    }
  } finally {
    reader.cancel().catch(() => undefined)
  }
}

/**
 * readSseEvents for the `data` of `message` events only: events with empty data (priming events, ids alone)
 * and other event types only move the cursor.
 */
export function readSse(
  body: ReadableStream<Uint8Array> | null,
  maxEventBytes: number,
  cursor: StreamCursor,
  onData: (data: string) => boolean | void,
): Promise<boolean> {
  return readSseEvents(body, maxEventBytes, cursor, (event) => (event.event === undefined || event.event === 'message') && event.data !== '' && onData(event.data))
}
