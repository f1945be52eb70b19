// The tab's way to a host: tries worker, leader and local in turn, queues messages until the host is ready, and finds another when it dies.
import { atom, type WritableAtom } from 'nanostores'
import { holdLock, locks, newId, whenFree } from './id'
import { available, openLink, type Link } from './link'
import type { HostMessage, TabMessage } from './protocol'
import { SharedError } from './shared-error'
import type { SharedMcpOptions, SharedState } from './types'

const PING_MS = 10_000

type Hello = Extract<TabMessage, { t: 'hello' }>

export interface ConnectionEvents {
  /** What this tab tells each new host about itself (sent again to a host that replaces a dead one). */
  hello(): Omit<Hello, 't' | 'tab' | 'lock'>
  /** A message left for the host (now, or from the queue once the host is ready). */
  onPost(message: TabMessage): void
  /** Every host message but 'ready'. */
  onMessage(message: HostMessage): void
  /** The host went away: what it held for this tab is gone with it. */
  onLost(): void
  /** No mode could start: the tab closes with this error (`$shared` already says so). */
  onNowhere(error: SharedError): void
}

export interface Connection {
  /** Where the host runs, and why a better mode failed; the tab sets it closed when it closes. */
  readonly $shared: WritableAtom<SharedState>
  readonly closed: boolean
  /** Posts now when a host is listening, else queues (after checking the message can be cloned at all). */
  send(message: TabMessage): void
  /** Takes back queued messages the host has not been sent yet. */
  unqueue(drop: (message: TabMessage) => boolean): void
  /** Says bye to a ready host and lets go of the link, the lock and the timers; later sends do nothing. */
  close(): void
}

export function connect(options: SharedMcpOptions, events: ConnectionEvents): Connection {
  const { modes = ['worker', 'leader', 'local'], worker, workerTimeout = 5000, namespace = 'nanomcp' } = options
  const $shared = atom<SharedState>({ mode: 'connecting' })
  const id = newId()
  let queue: TabMessage[] = []
  let link: Link | undefined
  let modeIndex = 0
  let ready = false
  let closed = false
  let failure: SharedError | undefined
  let stopHostWatch = () => {}
  let readyTimer: ReturnType<typeof setTimeout> | undefined
  const tabLock = holdLock(`${namespace}:tab:${id}`)

  function send(message: TabMessage) {
    if (closed) return
    if (ready && link) {
      link.port.post(message)
      events.onPost(message)
    } else {
      structuredClone(message)
      queue.push(message)
    }
  }

  const hello = () => {
    link?.port.post({ t: 'hello', tab: id, ...(locks() ? { lock: `${namespace}:tab:${id}` } : {}), ...events.hello() })
  }

  async function start(from: number) {
    await tabLock.granted
    for (let i = from; i < modes.length && !closed; i++) {
      const mode = modes[i]!
      if (!available(mode)) continue
      try {
        const opened = await openLink(mode, {
          id,
          namespace,
          ...(worker ? { worker } : {}),
          onFail: (error) => opened && link === opened && !ready && fail(error),
          onLeader: () => link === opened && !ready && hello(),
          onMessage: (message) => link === opened && receive(message),
        })
        if (closed) return opened.port.close()
        link = opened
        modeIndex = i
        hello()
        if (mode === 'worker') readyTimer = setTimeout(() => fail(new SharedError('worker-failed', `The shared worker did not answer within ${workerTimeout} ms`)), workerTimeout)
        return
      } catch (error) {
        failure = new SharedError('worker-failed', `Shared mode "${mode}" could not start`, { cause: error })
      }
    }
    if (closed) return
    // Nowhere to run (no MessageChannel either): every call settles now rather than at its guard.
    const error = failure ?? new SharedError('worker-failed', 'No way to run a shared client here')
    $shared.set({ mode: 'closed', error })
    events.onNowhere(error)
    queue = []
  }

  function fail(error: SharedError) {
    clearTimeout(readyTimer)
    failure = error
    link?.port.close()
    link = undefined
    void start(modeIndex + 1)
  }

  function hostLost() {
    if (closed || !ready) return
    ready = false
    stopHostWatch()
    events.onLost()
    $shared.set({ mode: 'connecting', ...(failure ? { error: failure } : {}) })
    if (link?.hosting() === false && modes[modeIndex] === 'worker') {
      link.port.close()
      link = undefined
      void start(modeIndex)
    } else hello()
  }

  function receive(message: HostMessage) {
    if (closed) return
    if (message.t !== 'ready') return events.onMessage(message)
    if (ready) return
    clearTimeout(readyTimer)
    ready = true
    const mode = modes[modeIndex] === 'worker' ? 'worker' : modes[modeIndex] === 'local' ? 'local' : link?.hosting() ? 'leader' : 'follower'
    $shared.set({ mode, ...(failure ? { error: failure } : {}) })
    stopHostWatch = whenFree(message.lock, hostLost)
    const queued = queue
    queue = []
    for (const m of queued) send(m)
  }

  let ping: ReturnType<typeof setInterval> | undefined
  if (!locks()) ping = setInterval(() => ready && send({ t: 'ping' }), PING_MS)
  void start(0)

  return {
    $shared,
    get closed() {
      return closed
    },
    send,
    unqueue: (drop) => void (queue = queue.filter((m) => !drop(m))),
    close() {
      if (ready) send({ t: 'bye' })
      closed = true
      clearTimeout(readyTimer)
      clearInterval(ping)
      stopHostWatch()
      tabLock.release()
      link?.port.close()
    },
  }
}
