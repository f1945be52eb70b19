import { createParser } from 'eventsource-parser'

/** One dispatched SSE event. `id` is the last event id as of this event (WHATWG keeps it across events). */
export interface SseEvent {
  event: string | undefined
  data: string
  id: string | undefined
}

export interface SseDecoder {
  /** Feeds decoded text, in any chunking; events reach `onEvent` as they complete. */
  feed(text: string): void
  /** The stream ended: a line end held back (a lone CR) counts now; an event without its blank line is dropped. */
  end(): void
}

/**
 * A thin wrapper around eventsource-parser for what it leaves out of the WHATWG rules (checked against 3.x):
 * - a lone CR is a line end, but the parser holds a trailing CR waiting for a possible LF, so a stream whose
 *   last event ends in CR CR never dispatches it. Here every line end becomes LF before the parser sees it,
 *   and a CR at the end of the stream ends its line.
 * - an event with `id:` and no `data:` is not dispatched by the parser, yet it sets the last event id, which a
 *   resumption must send. Here such an event reaches `onEvent` with empty data and its id.
 * - an event is bounded as a whole (`maxEventChars`), not only the line the parser buffers: many short `data:`
 *   lines without a blank line would otherwise grow without limit.
 * As WHATWG says, an event the stream cuts before its blank line is discarded.
 *
 * `onEvent` returning true stops the decoder: what is left of the text, and whatever is fed later, is ignored.
 *
 * Lines reach the parser one at a time (so that the corners above can be seen), which costs two calls and a
 * string copy per line. The event nearly every MCP stream is made of, one `data:` line and a blank line, both
 * ended by LF, is read here instead, with one search and one slice: it means for the parser exactly what it
 * means here (data of one line, no type, the id unchanged), and its share of a stream of small progress events
 * was about a fifth of the client's time.
 */
export function createSseDecoder(
  onEvent: (event: SseEvent) => boolean | void,
  onRetry: (ms: number) => void,
  onOverflow: () => void,
  maxEventChars: number,
): SseDecoder {
  let lastEventId: string | undefined
  // The id field seen in the event being read (undefined when none): it takes effect when the event dispatches.
  let fieldId: string | undefined
  let dispatched = false
  let heldCr = false
  let line = ''
  let eventChars = 0
  // Set on overflow, and when onEvent asks to stop.
  let over = false
  let first = true
  const dispatch = (event: SseEvent): void => {
    if (onEvent(event) === true) over = true
  }
  const parser = createParser({
    onEvent: (event) => {
      dispatched = true
      if (!over) dispatch({ event: event.event, data: event.data, id: lastEventId })
    },
    onRetry,
  })
  // A BOM opens the stream only: stripped here, for the first text, since the parser (which would strip one at
  // its own first feed) may see its first line later.
  parser.feed('')

  const takeLine = (text: string): void => {
    if (over) return
    if (text === '') {
      eventChars = 0
      if (fieldId !== undefined) lastEventId = fieldId
      dispatched = false
      parser.feed('\n')
      if (!dispatched && fieldId !== undefined) dispatch({ event: undefined, data: '', id: lastEventId })
      fieldId = undefined
      return
    }
    eventChars += text.length + 1
    if (eventChars > maxEventChars) {
      over = true
      return onOverflow()
    }
    // WHATWG: the field name is everything before the first colon, and one space after it is not part of the value.
    if (text.startsWith('id') && (text.length === 2 || text.charCodeAt(2) === 58)) {
      const colon = 2
      const value = text.length === 2 ? '' : text.slice(text.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1)
      // An id holding NUL is ignored, as the spec says.
      if (!value.includes('\0')) fieldId = value
    }
    parser.feed(`${text}\n`)
  }

  return {
    feed(text) {
      let start = 0
      if (first && text !== '') {
        first = false
        if (text.charCodeAt(0) === 0xfeff) start = 1
      }
      if (heldCr && text.charCodeAt(start) === 10) start++
      heldCr = false
      // Line ends found by indexOf (native) rather than a loop over every character: most events are long lines.
      let cr = text.indexOf('\r', start)
      while (!over) {
        if (cr !== -1 && cr < start) cr = text.indexOf('\r', start)
        const lf = text.indexOf('\n', start)
        // The common event (see above): at an event's start, `data:` up to an LF, then an LF alone.
        if (lf !== -1 && line === '' && eventChars === 0 && (cr === -1 || cr > lf) && text.charCodeAt(lf + 1) === 10 && text.startsWith('data:', start)) {
          if (lf - start + 1 > maxEventChars) {
            over = true
            return onOverflow()
          }
          dispatch({ event: undefined, data: text.slice(text.charCodeAt(start + 5) === 32 ? start + 6 : start + 5, lf), id: lastEventId })
          start = lf + 2
          continue
        }
        const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr)
        if (end === -1) break
        takeLine(line + text.slice(start, end))
        line = ''
        start = end + 1
        if (end === cr) {
          if (start === text.length) heldCr = true
          else if (text.charCodeAt(start) === 10) start++
        }
      }
      if (over) return
      line += text.slice(start)
      if (line.length + eventChars > maxEventChars) {
        over = true
        onOverflow()
      }
    },
    end() {
      heldCr = false
      line = ''
    },
  }
}
