import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { ProtocolError } from '../errors/protocol-error'

/** What a stream remembers across reconnections: the last event id and the server's `retry` delay. */
export interface StreamCursor {
  lastEventId?: string
  retry?: number
}

/**
 * Reads an SSE body until it ends or `onData` returns true (then the body is cancelled). `onData` gets the
 * `data` of each `message` event in order; events with empty data (priming events) and other event types only
 * move the cursor. One event may not exceed `maxEventBytes`: a listen stream never ends, so the limit is per
 * event rather than per body. Resolves whether the stream ended on its own (false) or was stopped (true).
 */
export async function readSse(
  body: ReadableStream<Uint8Array> | null,
  maxEventBytes: number,
  cursor: StreamCursor,
  onData: (data: string) => boolean | void,
): Promise<boolean> {
  const events: EventSourceMessage[] = []
  let overflow = false
  const parser = createParser({
    // The parser's own limit covers only what it buffers; an event that arrives whole in one chunk skips it.
    onEvent: (event) => void (event.data.length > maxEventBytes ? (overflow = true) : events.push(event)),
    onRetry: (retry) => void (cursor.retry = retry),
    onError: (error) => void (overflow ||= error.type === 'max-buffer-size-exceeded'),
    maxBufferSize: maxEventBytes,
  })
  if (!body) return false
  const reader = body.getReader()
  const decoder = new TextDecoder()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return false
      parser.feed(decoder.decode(value, { stream: true }))
      if (overflow) throw new ProtocolError('too-large', `An SSE event exceeds the limit of ${maxEventBytes} bytes`, { limit: maxEventBytes })
      for (const event of events.splice(0)) {
        if (event.id !== undefined) cursor.lastEventId = event.id
        if ((event.event === undefined || event.event === 'message') && event.data !== '' && onData(event.data)) return true
      }
    }
  } finally {
    reader.cancel().catch(() => undefined)
  }
}
