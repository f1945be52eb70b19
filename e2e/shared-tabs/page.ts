// The page the shared-tabs end-to-end test opens in eight tabs: one MCP server, its tool list on screen, and a
// handle on `window` for the test to call helpers and read when each tab first saw each tool.
import { createMcp } from '../../src/index'
import { createSharedMcp, SharedError } from '../../src/shared/index'

const query = new URLSearchParams(location.search)
const server = query.get('server') ?? ''
const mode = query.get('mode') ?? 'auto'
const out = (id: string, text: string) => void (document.getElementById(id)!.textContent = text)

// 'off' is plain createMcp (one client per tab); 'broken' points the worker at a script that is not there.
const options = {
  onInputRequest: () => ({ name: { action: 'accept', content: { name: `tab ${query.get('tab') ?? '?'}` } } }),
}
const mcp =
  mode === 'off'
    ? createMcp(server, options)
    : createSharedMcp(server, {
        ...options,
        ...(mode === 'auto' ? {} : mode === 'broken' ? { worker: () => new SharedWorker('./no-such-worker.js', { type: 'module' }) } : { modes: [mode as 'worker'] }),
      })

/** When this tab first saw each tool (ms since the epoch), for the update latency. */
const seen: Record<string, number> = {}
mcp.$tools.subscribe(({ items }) => {
  const now = Date.now()
  for (const tool of items) seen[tool.name] ??= now
  out('tools', items.map((tool) => tool.name).join(' '))
})
// Every list is watched, as an app showing them all would.
for (const $list of [mcp.$prompts, mcp.$resources, mcp.$resourceTemplates]) $list.subscribe(() => {})
mcp.$status.subscribe((state) => out('status', state.status))
mcp.$subscription.subscribe((state) => out('subscription', state?.status ?? 'none'))
if ('$shared' in mcp) mcp.$shared.subscribe((state) => out('mode', state.mode))

const errorOf = (error: unknown) => ({
  name: (error as Error).name,
  message: (error as Error).message,
  reason: (error as { reason?: unknown }).reason,
  shared: error instanceof SharedError,
})

Object.assign(window, { mcp, seen, errorOf })
