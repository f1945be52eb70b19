// The host page of the apps e2e suite: nanomcp's Client or createMcp() and mountApp, imported from the sources
// through Vite, as an app would use them. The test drives it with window.show() and reads window.hostLog.
import { Client, createMcp, StreamableHttpTransport } from '../../src/index'
import { mountApp, modelVisible, permissiveCsp, UI_EXTENSION, type AppState, type AppView } from '../../src/apps/index'
import type { Tool } from '../../src/index'

export interface ShowOptions {
  url: string
  tool: string
  sandbox: string
  kind?: 'client' | 'store'
  permissive?: boolean
  timeout?: number
  teardownTimeout?: number
  /** Call the tool and hand its result to the view (default true). */
  call?: boolean
}

declare global {
  interface Window {
    show(options: ShowOptions): Promise<{ modelTools: string[]; appTools: string[] }>
    view?: AppView
    appState?: AppState
    hostLog: unknown[][]
    mountError?: string
  }
}

window.hostLog = []
const log = (...entry: unknown[]) => void window.hostLog.push(entry)

window.show = async ({ url, tool: name, sandbox, kind = 'store', permissive, timeout, teardownTimeout, call = true }) => {
  const capabilities = { extensions: UI_EXTENSION }
  let tools: Tool[]
  let result: Promise<never> | undefined
  let mcp: Parameters<typeof mountApp>[1]['mcp']
  if (kind === 'client') {
    const client = new Client(new StreamableHttpTransport(url), { capabilities })
    tools = await client.listTools()
    if (call) result = client.callTool({ name, arguments: {} }) as Promise<never>
    mcp = client
  } else {
    const store = createMcp(url, { capabilities, autoListen: false })
    tools = await store.client.listTools()
    if (call) result = store.callTool(name, {}) as Promise<never>
    mcp = store
  }
  const tool = tools.find((t) => t.name === name)
  if (!tool) throw new Error(`no tool ${name}`)
  const element = document.getElementById('app')!
  try {
    window.view = mountApp(element, {
      mcp,
      tool,
      input: {},
      result,
      sandbox,
      timeout,
      teardownTimeout,
      csp: permissive ? permissiveCsp : undefined,
      onMessage: (message) => log('message', message),
      onOpenLink: (link) => log('open-link', link),
      onLog: (entry) => log('log', entry),
      onModelContext: (context) => log('model-context', context),
    })
  } catch (error) {
    window.mountError = `${(error as Error).name}: ${(error as Error).message}`
    throw error
  }
  window.view.$state.subscribe((state) => {
    window.appState = state
    document.getElementById('state')!.textContent = state.status + (state.error ? ` ${state.error.name}: ${state.error.message}` : '')
  })
  return { modelTools: tools.filter(modelVisible).map((t) => t.name), appTools: tools.map((t) => t.name) }
}
