// A TCP relay in front of an embedded server that counts the connections the browser opens: the number an
// HTTP/1.1 browser may hold per origin (six) is what shared tabs save, and only the socket level shows it.
import net from 'node:net'

export interface TcpCounter {
  port: number
  /** Connections opened since the start (or the last reset), and the most open at once. */
  stats(): { opened: number; open: number; peak: number; listening: number }
  reset(): void
  close(): Promise<void>
}

export async function startTcpCounter(targetPort: number): Promise<TcpCounter> {
  const sockets = new Set<net.Socket>()
  const clients = new Set<net.Socket>()
  // Connections that carried a subscriptions/listen request: a held one is a listen stream still open.
  const listening = new Set<net.Socket>()
  let opened = 0
  let peak = 0
  const server = net.createServer((client) => {
    opened++
    sockets.add(client)
    clients.add(client)
    peak = Math.max(peak, clients.size)
    const upstream = net.connect(targetPort, '127.0.0.1')
    sockets.add(upstream)
    const end = () => {
      sockets.delete(client)
      clients.delete(client)
      listening.delete(client)
      sockets.delete(upstream)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
    client.on('data', (chunk: Buffer) => {
      if (/^mcp-method:\s*subscriptions\/listen/im.test(chunk.toString('latin1'))) listening.add(client)
      else if (/^(POST|GET|DELETE) /m.test(chunk.toString('latin1'))) listening.delete(client)
    })
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    stats: () => ({ opened, open: clients.size, peak, listening: listening.size }),
    reset() {
      opened = 0
      peak = clients.size
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
