// Reads a request body once, so the stats, the SDK and the error answers all see the same bytes.
export const MAX_BODY_BYTES = 4 * 1024 * 1024

/** Resolves `{ raw, json, tooLarge, invalid }`; `json` is undefined when the body is empty or not JSON. */
export async function readBody(req, limit = MAX_BODY_BYTES) {
  const chunks = []
  let size = 0
  for await (const chunk of req) {
    size += chunk.length
    if (size > limit) return { raw: '', json: undefined, tooLarge: true, invalid: false }
    chunks.push(chunk)
  }
  const raw = Buffer.concat(chunks).toString('utf8')
  if (raw.trim() === '') return { raw, json: undefined, tooLarge: false, invalid: false }
  try {
    return { raw, json: JSON.parse(raw), tooLarge: false, invalid: false }
  } catch {
    return { raw, json: undefined, tooLarge: false, invalid: true }
  }
}
