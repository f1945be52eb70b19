// In-memory EventStore for the legacy Streamable HTTP server, so a client that lost an SSE stream can resume
// it with Last-Event-ID and get what it missed. One store per session; the newest events are kept.
const KEEP = 1000

export function createEventStore() {
  const events = []
  let sequence = 0

  return {
    async storeEvent(streamId, message) {
      const id = `${++sequence}`
      events.push({ id, streamId, message })
      if (events.length > KEEP) events.shift()
      return id
    },
    async getStreamIdForEventId(eventId) {
      return events.find((event) => event.id === eventId)?.streamId
    },
    async replayEventsAfter(lastEventId, { send }) {
      const index = events.findIndex((event) => event.id === lastEventId)
      if (index === -1) throw new Error(`unknown or expired Last-Event-ID ${lastEventId}`)
      const { streamId } = events[index]
      for (const event of events.slice(index + 1)) {
        if (event.streamId === streamId) await send(event.id, event.message)
      }
      return streamId
    },
  }
}
