// "Share one connection across tabs": the page's Mcp backed by nanomcp/shared (one client in a SharedWorker for
// every tab of this origin). The page asks `mcp.client` for a few things; here they go through the worker.
import type { Mcp, RequestOptions } from '../src/index'
import type { SharedMcp } from '../src/shared/index'

export function sharedAsMcp(shared: SharedMcp): Mcp {
  const client = {
    // Any request, run by the shared client (history replay, logging/setLevel, tasks/cancel).
    request: (method: string, params?: Record<string, unknown>, options?: RequestOptions) => shared.request(method, params, options),
    // The page reads the server from $server first; the worker's Client is not reachable from a tab.
    server: undefined,
    era: undefined,
    // Only used to announce a roots change to an older server: the worker does not relay notifications a tab
    // sends, so nothing is announced in shared mode.
    transport: { kind: 'shared', send: async () => undefined },
  }
  return { ...shared, client } as unknown as Mcp
}
