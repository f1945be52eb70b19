// The catalogue every embedded server serves, registered through each server's own SDK. The SDK-specific
// parts (progress, cancellation, asking the user, announcing changes) come in through `kit`, so the tools,
// prompt and resources are written once and behave the same on every server.
import * as z from 'zod'
import { README_URI } from './catalogue-state.mjs'

export const PIXEL_URI = 'nanomcp://files/pixel.png'
export const NOTE_TEMPLATE = 'nanomcp://notes/{id}'
export const STYLES = ['formal', 'casual', 'pirate']
// A real 1×1 PNG (one opaque pixel), so clients can decode what they render.
export const PIXEL_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
// Markup in server-provided strings: a page that renders it as HTML sets window.__xss.
export const MARKUP = '<img src=x onerror="window.__xss=1"> <script>window.__xss=2</script>'

export const INSTRUCTIONS =
  'nanomcp test server. Tools: echo, add, regional_echo, slow_count (progress), ask_name (asks the user), ' +
  'markup_tool, grow (adds a tool), touch (changes the readme). Prompt: greet. Resources: the readme, a pixel, ' +
  'and notes by id.'

export const CAPABILITIES = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { listChanged: true, subscribe: true },
  completions: {},
}

const text = (value) => ({ content: [{ type: 'text', text: value }] })
const empty = () => z.object({})

// The abort listener goes when the timer fires: slow_count sleeps once per step on the same request signal, and
// listeners left behind piled up past Node's limit of ten (a MaxListenersExceededWarning from step eleven on).
function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const onAbort = () => (clearTimeout(timer), resolve())
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

function catalogueTools(kit, state) {
  return {
    echo: [
      { title: 'Echo', description: 'Returns the text it was given.', inputSchema: z.object({ text: z.string() }) },
      async ({ text: value }) => text(value),
    ],
    add: [
      {
        title: 'Add',
        description: 'Adds two numbers; the sum comes back as text and as structured content.',
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        outputSchema: z.object({ sum: z.number() }),
      },
      async ({ a, b }) => ({ ...text(String(a + b)), structuredContent: { sum: a + b } }),
    ],
    regional_echo: [
      {
        title: 'Regional echo',
        description: 'Echoes the text with its region. The region travels as the Mcp-Param-Region header too.',
        inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }), text: z.string() }),
      },
      async ({ region, text: value }) => text(`[${region}] ${value}`),
    ],
    slow_count: [
      {
        title: 'Slow count',
        description: 'Counts to `steps`, one step every `delayMs` (default 100), reporting progress for each step.',
        inputSchema: z.object({
          steps: z.number().int().min(0).max(1000),
          delayMs: z.number().int().min(0).max(10_000).optional(),
        }),
      },
      async ({ steps, delayMs = 100 }, ctx) => {
        const signal = kit.signal(ctx)
        for (let step = 1; step <= steps; step++) {
          await sleep(delayMs, signal)
          if (signal?.aborted) return { ...text(`cancelled after ${step - 1} of ${steps}`), isError: true }
          await kit.progress(ctx, step, steps, `step ${step} of ${steps}`)
        }
        return text(`counted to ${steps}`)
      },
    ],
    ask_name: [
      { title: 'Ask name', description: 'Asks the user for their name and greets them.', inputSchema: empty() },
      async (_args, ctx) => kit.askName(ctx),
    ],
    markup_tool: [
      { title: `Markup ${MARKUP}`, description: `Server strings are data: ${MARKUP}`, inputSchema: empty() },
      async () => text(`Rendered as text, never as markup: ${MARKUP}`),
    ],
    grow: [
      {
        title: 'Grow',
        description: 'Adds a tool named extra_<n> and announces that the tool list changed.',
        inputSchema: empty(),
      },
      async (_args, ctx) => {
        const name = state.addTool()
        await kit.announce({ kind: 'tools' }, ctx)
        return text(`added ${name}`)
      },
    ],
    touch: [
      {
        title: 'Touch',
        description: `Changes ${README_URI} and announces the update to its subscribers.`,
        inputSchema: empty(),
      },
      async (_args, ctx) => {
        const uri = state.touch()
        await kit.announce({ kind: 'resource', uri }, ctx)
        return text(`touched ${uri} (revision ${state.readmeRevision()})`)
      },
    ],
  }
}

export const CATALOGUE_TOOL_NAMES = Object.freeze(Object.keys(catalogueTools({}, {})))
export const isCatalogueTool = (name) => CATALOGUE_TOOL_NAMES.includes(name)

/**
 * Registers the catalogue on `server` (an McpServer of either SDK). Returns `syncTools()`, which brings the
 * registered tools in line with `state` on a long-lived (per-session) server.
 */
export function registerCatalogue(server, kit, state) {
  const tools = catalogueTools(kit, state)
  const registered = new Map()

  function wanted() {
    const names = CATALOGUE_TOOL_NAMES.filter((name) => !state.isRemoved(name))
    return [...names, ...state.extraTools()]
  }

  /** Returns whether anything changed. */
  function syncTools() {
    const names = wanted()
    let changed = false
    for (const [name, tool] of registered) {
      if (names.includes(name)) continue
      tool.remove()
      registered.delete(name)
      changed = true
    }
    for (const name of names) {
      if (registered.has(name)) continue
      changed = true
      const [config, handler] = tools[name] ?? [
        { title: name, description: 'A tool added at run time.', inputSchema: empty() },
        async () => text(`${name} was called`),
      ]
      registered.set(name, server.registerTool(name, config, handler))
    }
    return changed
  }
  syncTools()

  const completeStyle = (value) => STYLES.filter((style) => style.startsWith(value ?? ''))
  server.registerPrompt(
    'greet',
    {
      title: 'Greet',
      description: 'A greeting for someone, in a style of your choice.',
      argsSchema: kit.promptArgs({
        name: z.string().describe('Who to greet'),
        // completable() marks the schema it is given. SDK v1 looks for the mark on the argument's own schema,
        // v2 looks through .optional() to the inner one: mark both.
        style: kit.completable(
          kit.completable(z.string().describe(`One of ${STYLES.join(', ')}`), completeStyle).optional(),
          completeStyle,
        ),
      }),
    },
    ({ name, style }) => ({
      description: `Greeting for ${name}`,
      messages: [{ role: 'user', content: { type: 'text', text: `Greet ${name} in a ${style ?? 'friendly'} style.` } }],
    }),
  )

  server.registerResource(
    'readme',
    README_URI,
    { title: 'Readme', description: 'Changes when the touch tool runs.', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: state.readmeText() }] }),
  )
  server.registerResource(
    'pixel',
    PIXEL_URI,
    { title: 'Pixel', description: 'A 1×1 PNG.', mimeType: 'image/png' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: PIXEL_PNG_BASE64 }] }),
  )
  server.registerResource(
    'note',
    new kit.ResourceTemplate(NOTE_TEMPLATE, {
      list: undefined,
      complete: { id: (value) => ['readme', 'todo', 'ideas'].filter((id) => id.startsWith(value ?? '')) },
    }),
    { title: 'Note', description: 'A note by id.', mimeType: 'text/plain' },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: `Note ${id}` }] }),
  )

  return { syncTools }
}
