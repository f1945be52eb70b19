// A scripted 2024-11-05 HTTP+SSE server for the transport tests.
import type http from 'node:http'
import { openSse, result, startTestServer, type RecordedRequest, type TestServer } from './test-server'

export interface FakeSse {
  server: TestServer
  streams: http.ServerResponse[]
  posts: RecordedRequest[]
}

/**
 * A 2024-11-05 server: GET /sse opens a session stream announcing `endpoint(session)`; POSTs are answered by
 * `answer` (default: 202, then the result on the session's stream).
 */
export async function fakeSse(
  options: {
    endpoint?: (session: number) => string | undefined
    answer?: (post: RecordedRequest, res: http.ServerResponse, stream: http.ServerResponse) => void
    /** Answers the GET instead of opening the stream (e.g. a 401 or a redirect); return false to open it after all. */
    get?: (request: RecordedRequest, res: http.ServerResponse) => boolean
  } = {},
): Promise<FakeSse> {
  const streams: http.ServerResponse[] = []
  const posts: RecordedRequest[] = []
  const endpoint = options.endpoint ?? ((session) => `/messages?sessionId=s${session}`)
  const answer =
    options.answer ??
    ((post, res, stream) => {
      res.writeHead(202).end()
      if (post.json.id !== undefined) stream.write(`event: message\ndata: ${JSON.stringify(result(post.json.id, { session: post.url }))}\n\n`)
    })
  const server = await startTestServer((recorded, res) => {
    if (recorded.method === 'GET') {
      if (options.get?.(recorded, res)) return
      streams.push(res)
      const announced = endpoint(streams.length)
      openSse(res, {}, announced === undefined ? ': no endpoint yet\n\n' : `event: endpoint\ndata: ${announced}\n\n`)
      return
    }
    posts.push(recorded)
    const session = Number(new URL(recorded.url, 'http://x').searchParams.get('sessionId')?.slice(1))
    answer(recorded, res, streams[session - 1]!)
  })
  return { server, streams, posts }
}
