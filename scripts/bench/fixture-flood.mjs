// A request whose SSE response carries `count` progress notifications before its result: the stream benchmark.
// Events are written in batches and the writer waits for 'drain', so the server never buffers the whole stream.
const BATCH = 500

const progressEvent = (token, progress, total) =>
  `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${token},"progress":${progress},"total":${total},"message":"step ${progress} of ${total}"}}\n\n`

/** Writes the stream to `res`; resolves with the number of body bytes sent once the response has ended. */
export async function sendFlood(res, { id, token, count }) {
  const tokenJson = JSON.stringify(token)
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
  let bytes = 0
  for (let start = 1; start <= count; start += BATCH) {
    let chunk = ''
    for (let i = start; i < Math.min(count + 1, start + BATCH); i++) chunk += progressEvent(tokenJson, i, count)
    bytes += Buffer.byteLength(chunk)
    if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve))
    if (res.destroyed) return bytes
  }
  // The result reports the notification bytes, so a client can compute MB/s without counting bytes itself.
  const result = {
    resultType: 'complete',
    content: [{ type: 'text', text: `sent ${count} progress notifications` }],
    structuredContent: { notifications: count, bytes },
  }
  const last = `data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`
  bytes += Buffer.byteLength(last)
  res.end(last)
  return bytes
}
