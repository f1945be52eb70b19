// nodeHandler over a real socket: a long answer that outruns the socket waits for it without piling up listeners.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { nodeHandler } from './node'

let server: http.Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve())))

describe('nodeHandler', () => {
  it('waits for a full socket without adding a listener per chunk', async () => {
    let res: http.ServerResponse | undefined
    const counts: number[] = []
    const chunk = new Uint8Array(256 * 1024)
    let left = 40
    const handle = nodeHandler(async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(stream) {
            counts.push(res!.listenerCount('close') + res!.listenerCount('drain'))
            if (left-- > 0) stream.enqueue(chunk)
            else stream.close()
          },
        }),
      ),
    )
    server = http.createServer((req, r) => ((res = r), handle(req, r)))
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    expect((await response.arrayBuffer()).byteLength).toBe(40 * chunk.byteLength)
    // Listeners of Node's own and the adapter's abort one stay; waits for 'drain' must not add up.
    expect(Math.max(...counts) - counts[0]!).toBeLessThanOrEqual(2)
  })
})
