// A view built with the official guest `App` SDK, bundled into the fixture server's ui:// resources. It shows what
// it receives and what it could reach from inside the sandbox, each as an <li data-k> the test reads.
import { App } from '@modelcontextprotocol/ext-apps'

declare global {
  interface Window {
    FIXTURE: { mode: string; probeUrl: string }
  }
}

const list = document.getElementById('out')!
function out(key: string, value: unknown) {
  let li = list.querySelector<HTMLElement>(`[data-k="${key}"]`)
  if (!li) {
    li = document.createElement('li')
    li.dataset.k = key
    list.append(li)
  }
  li.textContent = typeof value === 'string' ? value : JSON.stringify(value)
}
const blocked = (probe: () => unknown) => {
  try {
    probe()
    return 'reachable'
  } catch (error) {
    return `blocked (${(error as Error).name})`
  }
}

// Every message with a method, in arrival order; one that comes before `initialized` was sent is marked.
const received: string[] = []
let connected = false
addEventListener('message', (event) => {
  const method = (event.data as { method?: unknown } | null)?.method
  if (typeof method === 'string') received.push(connected ? method : `EARLY ${method}`)
  out('received', received)
})
addEventListener('securitypolicyviolation', (event) => out('violation', `${event.violatedDirective} ${event.blockedURI}`))

const { mode, probeUrl } = window.FIXTURE
const app = new App({ name: `fixture-${mode}`, version: '1.0.0' }, {}, { autoResize: true })
app.ontoolinput = (params) => out('input', params.arguments ?? {})
app.ontoolresult = (result) => out('result', result.content?.map((c) => (c.type === 'text' ? c.text : c.type)).join(' ') ?? '')
app.ontoolcancelled = (params) => out('cancelled', params.reason ?? '')
app.onhostcontextchanged = (context) => out('context-changed', context)
// The silent view never answers the host's teardown request.
app.onteardown = mode === 'silent' ? () => new Promise(() => {}) : async () => (out('teardown', 'asked'), {})

async function call(name: string) {
  try {
    const result = await app.callServerTool({ name, arguments: {} })
    out(`call ${name}`, result.content.map((c) => (c.type === 'text' ? c.text : c.type)).join(' '))
  } catch (error) {
    out(`call ${name}`, `error: ${error instanceof Error ? error.message : JSON.stringify(error)}`)
  }
}

// A classic script has no top-level await.
void (async () => {
  await app.connect()
  connected = true
  out('connected', app.getHostContext() ?? {})
  out('origin', self.origin)
  out('top', blocked(() => window.top!.document.title))
  out('parent', blocked(() => window.parent.document.title))
  out('write-host', blocked(() => (window.top!.document.body.innerHTML = 'taken over')))
  out('storage', blocked(() => localStorage.length))
  out('ancestors', [...(location.ancestorOrigins ?? [])])
  out('referrer', document.referrer)
  try {
    await fetch(probeUrl)
    out('fetch', 'reachable')
  } catch (error) {
    out('fetch', `blocked (${(error as Error).name})`)
  }
  if (mode === 'view') {
    await call('app-only')
    await call('model-only')
    await call('fixture')
  }
  // Grows the document, so the host must grow the frame to show all of it.
  const tall = document.createElement('div')
  tall.id = 'tall'
  tall.style.height = '600px'
  tall.textContent = 'tall block'
  document.body.append(tall)
  out('done', 'yes')
})()
