// What the legacy era's stream code (session-stream.ts, resume.ts) uses of its StreamableHttpTransport. Types only:
// no runtime code lives here.
import type { Debug, Pending } from '../pending'

export interface StreamHost {
  readonly url: string
  /** The largest SSE event accepted (the transport's maxBodyBytes). */
  readonly max: number
  readonly debug: Debug
  /** Requests in flight by id: answers on the session stream settle them. */
  readonly pending: Map<string, Pending>
  /** The legacy era's headers: MCP-Protocol-Version and Mcp-Session-Id, as the session stands now. */
  headers(): Record<string, string>
  /** fetch that keeps the session: takes the id from any response, ends it on a 404 to a request that carried it. */
  fetch(method: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response>
  /** Reads an SSE response, each event's `data` to `onData`, until `finished()`, resuming when `resumable`. */
  follow(response: Response, signal: AbortSignal, resumable: boolean, onData: (data: string) => void, finished: () => boolean): Promise<boolean>
}
