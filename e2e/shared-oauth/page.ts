// A page that several tabs open on one OAuth-protected server with the client shared in a SharedWorker: the
// worker signs in and holds the tokens; the tab whose button was clicked shows the popup.
import { createSharedMcp } from '../../src/shared/index'

const server = new URLSearchParams(location.search).get('server') ?? ''
const out = (id: string, text: string) => void (document.getElementById(id)!.textContent = text)
const mcp = createSharedMcp(server, { modes: ['worker'], oauth: { redirectUri: new URL('callback.html', location.href).href } })

mcp.$tools.subscribe(({ items }) => out('tools', items.map((tool) => tool.name).join(' ')))
mcp.$auth.subscribe((state) => out('auth', state.status + (state.error ? `: ${state.error.message}` : '')))
mcp.$shared.subscribe((state) => out('mode', state.mode))
document.getElementById('sign-in')!.addEventListener('click', () => void mcp.signIn().catch(() => undefined))
Object.assign(window, { mcp })
