// The SharedWorker every tab of the origin connects to: one host, one port per tab.
import { createHost } from './host'
import type { HostMessage, Port, TabMessage } from './protocol'

// The dom lib has no SharedWorkerGlobalScope; this is the part of it used here.
const scope = self as unknown as { name: string; addEventListener(type: 'connect', listener: (event: MessageEvent) => void): void }

// The namespace only separates Web Lock names; the browser already gives each worker name its own worker.
const host = createHost(scope.name || 'nanomcp')

scope.addEventListener('connect', (event) => {
  const raw = event.ports[0]!
  const port: Port<TabMessage, HostMessage> = {
    post: (message) => raw.postMessage(message),
    onMessage(handler) {
      raw.onmessage = (e: MessageEvent) => handler(e.data as TabMessage)
    },
    close: () => raw.close(),
  }
  host.accept(port)
})
