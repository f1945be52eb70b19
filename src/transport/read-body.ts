import { ProtocolError } from '../errors/protocol-error'

/**
 * Reads a response body as UTF-8 text, at most `maxBytes` of it. Over the limit it throws a ProtocolError
 * (or, with `truncate`, returns what fits: error bodies are only shown, never parsed for results).
 * The body is always consumed or cancelled, so the connection is released.
 */
export async function readText(response: Response, maxBytes: number, truncate = false): Promise<string> {
  const reader = response.body?.getReader()
  if (!reader) return ''
  const decoder = new TextDecoder()
  let text = ''
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return text + decoder.decode()
      size += value.byteLength
      if (size > maxBytes) {
        if (truncate) return text + decoder.decode(value.subarray(0, value.byteLength - (size - maxBytes)))
        throw new ProtocolError(`The response body exceeds the limit of ${maxBytes} bytes`, { limit: maxBytes })
      }
      text += decoder.decode(value, { stream: true })
    }
  } finally {
    reader.cancel().catch(() => undefined)
  }
}
