// Keeps hold of open subscriptions/listen response bodies so a test can cut them the way a broken network
// would: the stream just ends, with no listen result (the SDK's own close() always ends them gracefully).
export function createListenStreams() {
  const open = new Set()

  return {
    get size() {
      return open.size
    },

    /** Returns a response whose body can later be cut by drop(). */
    track(response) {
      if (!response.body) return response
      const reader = response.body.getReader()
      let controller
      let dropped = false
      const entry = {
        drop() {
          dropped = true
          open.delete(entry)
          try {
            controller.close()
          } catch {
            // already closed
          }
          reader.cancel().catch(() => {})
        },
      }
      const body = new ReadableStream({
        start(c) {
          controller = c
        },
        async pull(c) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }))
          if (dropped) return
          if (done) return void (open.delete(entry), c.close())
          c.enqueue(value)
        },
        cancel(reason) {
          open.delete(entry)
          return reader.cancel(reason)
        },
      })
      open.add(entry)
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
    },

    /** Cuts every open stream; returns how many there were. */
    drop() {
      const count = open.size
      for (const entry of open) entry.drop()
      return count
    },
  }
}
