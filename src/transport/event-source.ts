/**
 * The part of EventSource the HTTP+SSE transport uses, so the browser's own and the `eventsource` package's
 * (for Node) both fit.
 */
export interface EventSourceLike {
  readonly readyState: number
  addEventListener(type: string, listener: (event: Event) => void): void
  close(): void
}

export type EventSourceConstructor = new (url: string, init?: { withCredentials?: boolean }) => EventSourceLike
