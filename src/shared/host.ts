import { createEntry, type Entry, type HostTab } from './entry'
import { holdLock, locks, newId, whenFree } from './id'
import type { HostMessage, Port, TabMessage } from './protocol'
import { SharedError } from './shared-error'
import { encodeError } from './wire-error'

export interface Host {
  /** Serves one tab's port until the tab says bye, its lock frees (it closed or crashed) or it goes silent. */
  accept(port: Port<TabMessage, HostMessage>): void
}

// Without Web Locks (an insecure origin), a tab proves it is alive by its messages and its pings.
const SILENCE_MS = 180_000

/**
 * Runs shared clients for any number of tabs: in the SharedWorker, or in the leader tab. Holds a Web Lock for
 * its whole life, so tabs learn it died (the lock frees) and reconnect elsewhere.
 */
export function createHost(namespace: string): Host & { readonly lock: string } {
  const entries = new Map<string, Entry>()
  const lock = `${namespace}:host:${newId()}`
  // Tabs watch this lock to learn the host died, so it must be held before any tab hears of it.
  const { granted } = holdLock(lock)
  let holding = false
  void granted.then(() => (holding = true))

  return {
    lock,
    accept(port) {
      let tab: HostTab | undefined
      let entry: Entry | undefined
      let stopWatching = () => {}
      let silence: ReturnType<typeof setTimeout> | undefined
      let lockWatched = false

      const drop = () => {
        stopWatching()
        clearTimeout(silence)
        if (tab && entry) entry.detach(tab)
        tab = entry = undefined
      }

      const handle = (message: TabMessage) => {
        if (message.t === 'hello') {
          const keyString = JSON.stringify(message.key)
          // The same tab saying hello again (a leader announced itself while its first hello was on the way):
          // answer again, but never detach it, which would close a client it alone holds.
          if (tab && entry && tab.id === message.tab && tab.key === keyString) {
            tab.send({ t: 'ready', lock })
            entry.attach(tab, message)
            return
          }
          drop()
          let current = entries.get(keyString)
          if (!current) {
            current = createEntry(message.key, () => entries.get(keyString) === current && entries.delete(keyString))
            entries.set(keyString, current)
          }
          const self: HostTab = (tab = {
            id: message.tab,
            key: keyString,
            send(out) {
              if (tab !== self) return
              try {
                port.post(out)
              } catch (error) {
                // A result that cannot be cloned still settles the tab's call. Any other failure means the port
                // broke: the tab is gone, and its lock or its silence detaches it.
                if (out.t !== 'result') return
                const failure = new SharedError('not-cloneable', 'the result cannot be sent to the tab', { cause: error })
                try {
                  port.post({ t: 'result', id: out.id, ok: false, error: encodeError(failure) })
                } catch {
                  // the port is gone
                }
              }
            },
            watching: new Set(),
            notifications: message.notifications,
            trace: message.trace,
            calls: new Map(),
            resources: new Map(),
          })
          entry = current
          self.send({ t: 'ready', lock })
          entry.attach(self, message)
          lockWatched = !!message.lock && !!locks()
          if (lockWatched) stopWatching = whenFree(message.lock!, () => tab === self && (drop(), port.close()))
        } else if (message.t === 'bye') {
          drop()
          port.close()
          return
        } else if (tab && entry && message.t !== 'ping') entry.handle(tab, message)
        // Without a lock to watch, only silence tells that a tab is gone (it pings while alive).
        if (tab && !lockWatched) {
          clearTimeout(silence)
          const self = tab
          silence = setTimeout(() => tab === self && (drop(), port.close()), SILENCE_MS)
        }
      }
      let backlog = granted
      // One bad message (a tab from another version of the library) must not stop the port, nor the worker.
      const safely = (message: TabMessage) => {
        try {
          handle(message)
        } catch {
          // ignored: the tab's own guard settles its call, if it made one
        }
      }
      port.onMessage((message) => {
        if (holding) safely(message)
        else backlog = backlog.then(() => safely(message))
      })
    },
  }
}
