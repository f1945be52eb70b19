// Test helper for the shared mode: a tab's end of a MessageChannel into a host, recording what the host sends.
import type { createHost } from '../shared/host'
import type { HostMessage, Port, TabMessage } from '../shared/protocol'

/** Connects a tab to `host`; the tab's port goes into `opened`, for the test file to close after each test. */
export function tabPort(host: ReturnType<typeof createHost>, opened: { close(): unknown }[]) {
  const channel = new MessageChannel()
  const received: HostMessage[] = []
  host.accept({
    post: (m) => channel.port1.postMessage(m),
    onMessage: (handler) => void (channel.port1.onmessage = (event: MessageEvent<TabMessage>) => handler(event.data)),
    close: () => channel.port1.close(),
  } satisfies Port<TabMessage, HostMessage>)
  channel.port2.onmessage = (event: MessageEvent<HostMessage>) => void received.push(event.data)
  opened.push(channel.port2)
  const send = (m: TabMessage) => channel.port2.postMessage(m)
  const atom = (name: string) => [...received].reverse().find((m) => m.t === 'atom' && m.name === name) as { value: any } | undefined
  return { send, received, atom }
}
