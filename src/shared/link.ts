import { locks } from './id'
import type { HostMessage, Port, TabMessage } from './protocol'
import { SharedError } from './shared-error'

export type LinkMode = 'worker' | 'leader' | 'local'

export interface Link {
  readonly port: Port<HostMessage, TabMessage>
  /** Whether this tab itself runs the host (leader and local modes). */
  hosting(): boolean
}

export interface LinkContext {
  id: string
  namespace: string
  worker?: () => SharedWorker
  /** The worker failed before it answered (its script did not load). */
  onFail(error: SharedError): void
  /** A tab became the leader: a tab without a host says hello again. */
  onLeader(): void
  onMessage(message: HostMessage): void
}

export const available = (mode: LinkMode): boolean =>
  mode === 'worker'
    ? typeof SharedWorker === 'function'
    : mode === 'leader'
      ? !!locks() && typeof BroadcastChannel === 'function'
      : typeof MessageChannel === 'function'

type Envelope = { to: string; from?: string; data: unknown } | { t: 'leader' }

interface Election {
  leader: boolean
  listeners: Set<() => void>
}
const elections = new Map<string, Election>()

/**
 * Joins the Web Locks queue for leadership of `namespace`. The tab holding the lock runs the host and serves
 * every tab over a BroadcastChannel until it closes; the lock then passes to the next tab in the queue.
 */
function elect(namespace: string): Election {
  let election = elections.get(namespace)
  if (election) return election
  const current: Election = (election = { leader: false, listeners: new Set() })
  elections.set(namespace, current)
  void locks()!.request(`${namespace}:leader`, async () => {
    const { createHost } = await import('./host')
    const host = createHost(namespace)
    const channel = new BroadcastChannel(`${namespace}:shared`)
    const ports = new Map<string, (message: TabMessage) => void>()
    channel.onmessage = (event: MessageEvent<Envelope>) => {
      const envelope = event.data
      if (!('to' in envelope) || envelope.to !== 'leader' || !envelope.from) return
      const from = envelope.from
      const data = envelope.data as TabMessage
      if (!ports.has(from)) {
        if (data.t !== 'hello') return
        host.accept({
          post: (message) => channel.postMessage({ to: from, data: message } satisfies Envelope),
          onMessage: (handler) => void ports.set(from, handler),
          close: () => void ports.delete(from),
        })
      }
      ports.get(from)?.(data)
    }
    current.leader = true
    channel.postMessage({ t: 'leader' } satisfies Envelope)
    for (const listener of current.listeners) listener()
    // Leads for the rest of the tab's life: closing the tab frees the lock for the next one.
    await new Promise(() => {})
  }).catch(() => {
    // The lock manager refused (an opaque origin): this tab never leads; a follower still finds a leader if any.
  })
  return current
}

/** Opens a link to a host of the given kind; messages flow once the host answers the tab's hello. */
export async function openLink(mode: LinkMode, context: LinkContext): Promise<Link> {
  if (mode === 'worker') {
    // The literal `new SharedWorker(new URL(...), { type: 'module' })` is what bundlers (Vite, webpack 5,
    // Parcel) recognise to build and emit the worker script beside the app.
    const worker = context.worker
      ? context.worker()
      : new SharedWorker(new URL('./worker.ts', import.meta.url), { type: 'module', name: context.namespace })
    worker.addEventListener('error', (event) =>
      context.onFail(new SharedError('worker-failed', 'The shared worker could not start (blocked by CSP, a file:// page, or a missing script)', { cause: event })),
    )
    const raw = worker.port
    raw.onmessage = (event: MessageEvent<HostMessage>) => context.onMessage(event.data)
    raw.start()
    return { port: { post: (m) => raw.postMessage(m), onMessage() {}, close: () => raw.close() }, hosting: () => false }
  }
  if (mode === 'leader') {
    const election = elect(context.namespace)
    election.listeners.add(context.onLeader)
    const channel = new BroadcastChannel(`${context.namespace}:shared`)
    channel.onmessage = (event: MessageEvent<Envelope>) => {
      const envelope = event.data
      if ('t' in envelope) context.onLeader()
      else if (envelope.to === context.id) context.onMessage(envelope.data as HostMessage)
    }
    return {
      port: {
        post: (m) => channel.postMessage({ to: 'leader', from: context.id, data: m } satisfies Envelope),
        onMessage() {},
        close() {
          election.listeners.delete(context.onLeader)
          channel.close()
        },
      },
      hosting: () => election.leader,
    }
  }
  // The last resort: this tab's own host, behind the same port protocol (so errors and cloning behave alike).
  const { createHost } = await import('./host')
  const host = createHost(context.namespace)
  const channel = new MessageChannel()
  host.accept({
    post: (m) => channel.port1.postMessage(m),
    onMessage: (handler) => void (channel.port1.onmessage = (event: MessageEvent<TabMessage>) => handler(event.data)),
    close: () => channel.port1.close(),
  })
  channel.port2.onmessage = (event: MessageEvent<HostMessage>) => context.onMessage(event.data)
  return { port: { post: (m) => channel.port2.postMessage(m), onMessage() {}, close: () => channel.port2.close() }, hosting: () => true }
}
