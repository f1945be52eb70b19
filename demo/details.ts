// The right-hand pane: what one selected tool, prompt, resource or template is, and a form to use it.
import { AbortError, type ListKind, type LogLevel, type Mcp, type Progress, type RequestOptions, type Tool } from '../src/index'
import { appSlot, withApp } from './app-view'
import { displayName, type Item } from './catalog'
import { fill, h, isRecord, json } from './dom'
import { attachCompletions } from './completions'
import { clock } from './clock'
import type { Call, History } from './history'
import { onOpenResource, renderError, renderPromptResult, renderReadResult, renderToolResult } from './render-content'
import { reveal } from './reveal'
import { FormInputError, schemaForm, type SchemaForm } from './schema-form'
import { expandTemplate, templateVariables } from './uri-template'

const HINTS: Record<string, string> = {
  readOnlyHint: 'read-only',
  destructiveHint: 'destructive',
  idempotentHint: 'idempotent',
  openWorldHint: 'open world',
}

/** The generated form, and beside it a raw-JSON editor for the same arguments: open, it is what gets sent. */
function withJsonEditor(fields: SchemaForm): SchemaForm {
  const editor = h('textarea', { id: 'raw-arguments', rows: 6, spellcheck: 'false', class: 'mono', 'aria-describedby': 'raw-arguments-hint' })
  const box = h(
    'details',
    { class: 'raw-json' },
    h('summary', {}, 'Edit arguments as JSON'),
    h('label', { for: 'raw-arguments' }, 'Arguments (JSON object)'),
    editor,
    h('p', { class: 'hint', id: 'raw-arguments-hint' }, 'While this is open, the call sends this object and ignores the fields above.'),
  )
  box.addEventListener('toggle', () => {
    // Open, the object is what gets sent: the fields' own checks (a required field left empty) must not block
    // it, since sending arguments the server should refuse is part of inspecting it.
    const form = box.closest('form')
    if (form) form.noValidate = box.open
    if (!box.open || editor.value.trim()) return
    try {
      editor.value = JSON.stringify(fields.read(), null, 2)
    } catch {
      editor.value = '{}'
    }
  })
  return {
    element: h('div', {}, fields.element, box),
    read() {
      if (!box.open) return fields.read()
      let value: unknown
      try {
        value = JSON.parse(editor.value)
      } catch (error) {
        throw new FormInputError(`The arguments are not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
      }
      if (!isRecord(value)) throw new FormInputError('The arguments must be a JSON object, such as {"text": "hi"}.')
      return value
    },
  }
}

export interface LogOptions {
  /** The level asked of 2026-07-28 servers on every call; undefined asks for no logs. */
  level: LogLevel | undefined
  onLog: NonNullable<RequestOptions['onLog']>
}

/** A line to add under a call's outcome (a result or the error it failed with), or nothing. */
export type Explain = (outcome: unknown) => HTMLElement | undefined

/** The outcome as the server sent it, folded beside the rendered view. */
const rawView = (result: unknown) =>
  h('details', { class: 'raw-result', 'data-testid': 'raw-result' }, h('summary', {}, 'Raw JSON'), h('pre', {}, json(result)))

export function createDetails(pane: HTMLElement, mcp: Mcp, history: History, logs: LogOptions, explain: Explain = () => undefined) {
  // Watches outlive the selection: a resource stays subscribed until the user stops it or disconnects.
  const watches = new Map<string, { stop: () => void; updates: number; last?: number }>()

  /** Runs one call with a Cancel button and its progress, keeps it in the history, then shows its result or error. */
  async function run(
    output: HTMLElement,
    call: Call,
    request: (options: RequestOptions) => Promise<Record<string, unknown>>,
    render: (result: Record<string, unknown>) => HTMLElement,
  ) {
    const controller = new AbortController()
    const progress = h('progress', { hidden: true, 'aria-label': 'Progress' })
    const note = h('span', {}, 'Waiting for the server… ')
    const onProgress = (p: Progress) => {
      progress.hidden = false
      progress.max = p.total ?? 0
      if (p.total) progress.value = p.progress
      else progress.removeAttribute('value')
      note.textContent = `${p.message ?? `${p.progress}${p.total ? ` of ${p.total}` : ''}`} `
    }
    output.replaceChildren(
      h(
        'p',
        { class: 'busy' },
        note,
        progress,
        ' ',
        h('button', { type: 'button', onclick: () => controller.abort('cancelled by the user') }, 'Cancel'),
      ),
    )
    reveal(output)
    try {
      const result = await history.record(call, () => request({ signal: controller.signal, onProgress, ...(logs.level ? { logLevel: logs.level, onLog: logs.onLog } : {}) }))
      output.replaceChildren(render(result), explain(result) ?? '', rawView(result))
    } catch (error) {
      // The user's own Cancel is an outcome, not a failure.
      const cancelled = error instanceof AbortError && controller.signal.aborted
      output.replaceChildren(
        cancelled ? h('p', { class: 'hint cancelled', 'data-testid': 'cancelled' }, 'Cancelled. The server was told to stop.') : renderError(error),
        explain(error) ?? '',
      )
    }
    // The outcome of what the user just did goes where they look, however far down the form pushed it.
    reveal(output)
  }

  /** A form whose submit reads the generated fields and hands them to `submit`. */
  function actionForm(fields: { element: HTMLElement; read(): Record<string, unknown> }, label: string, submit: (args: Record<string, unknown>) => void) {
    const problem = h('p', { class: 'error-text', role: 'alert' })
    const form = h('form', { class: 'action' }, fields.element, problem, h('button', { type: 'submit', class: 'primary' }, label))
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      problem.textContent = ''
      try {
        submit(fields.read())
      } catch (error) {
        if (!(error instanceof FormInputError)) throw error
        problem.textContent = error.message
      }
    })
    return form
  }

  function header(item: Item, kind: string, ...extra: (Node | string | false | undefined)[]) {
    return [
      h('p', { class: 'kind' }, kind),
      h('h2', { id: 'detail-title' }, displayName(item)),
      displayName(item) !== item.name && h('p', {}, h('code', {}, item.name)),
      item.description && h('p', { class: 'description' }, item.description),
      ...extra,
    ]
  }

  function tool(item: Item) {
    const output = h('div', { class: 'output', 'aria-live': 'polite' })
    const app = appSlot()
    const annotations = isRecord(item.annotations) ? item.annotations : {}
    const chips = Object.entries(HINTS).filter(([key]) => annotations[key] === true)
    fill(
      pane,
      ...header(
        item,
        'Tool',
        chips.length > 0 &&
          h('p', { class: 'chips', title: 'Hints from the server; not verified' }, chips.map(([, text]) => h('span', { class: 'chip' }, text))),
      ),
      actionForm(withJsonEditor(schemaForm(item.inputSchema)), 'Call tool', (args) =>
        run(output, { method: 'tools/call', params: { name: item.name, arguments: args } }, (options) => withApp(app, mcp, item as Tool, args, mcp.callTool(item.name, args, options)), renderToolResult),
      ),
      item.outputSchema !== undefined && h('details', {}, h('summary', {}, 'Output schema'), h('pre', {}, json(item.outputSchema))),
      h('div', { class: 'result-with-app' }, output, app),
    )
  }

  function prompt(item: Item) {
    const output = h('div', { class: 'output', 'aria-live': 'polite' })
    const args = Array.isArray(item.arguments) ? item.arguments.filter(isRecord) : []
    // Prompt arguments are always strings: describe them as a flat schema and reuse the generated form.
    const schema = {
      type: 'object',
      properties: Object.fromEntries(args.map((a) => [String(a.name), { type: 'string', title: a.title, description: a.description }])),
      required: args.filter((a) => a.required === true).map((a) => String(a.name)),
    }
    const form = actionForm(schemaForm(schema), 'Get prompt', (values) =>
        run(
          output,
          { method: 'prompts/get', params: { name: item.name, arguments: values } },
          (options) => mcp.getPrompt(item.name, values as Record<string, string>, options),
          renderPromptResult,
        ),
    )
    attachCompletions(form, mcp, { type: 'ref/prompt', name: item.name })
    fill(pane, ...header(item, 'Prompt'), form, output)
  }

  function resource(item: Item) {
    const uri = String(item.uri)
    const output = h('div', { class: 'output', 'aria-live': 'polite' })
    const watchButton = h('button', { type: 'button', 'aria-pressed': 'false' })
    const updates = h('p', { class: 'hint', 'data-testid': 'resource-updates', 'aria-live': 'polite' })
    const read = () => run(output, { method: 'resources/read', params: { uri } }, (options) => mcp.readResource(uri, options), renderReadResult)

    const paint = () => {
      const watch = watches.get(uri)
      watchButton.textContent = watch ? 'Stop watching' : 'Watch for updates'
      watchButton.setAttribute('aria-pressed', String(!!watch))
      updates.textContent = watch
        ? watch.updates
          ? `Updated ${watch.updates} time(s), last at ${clock(watch.last ?? 0)}.`
          : 'Watching: the page re-reads it when the server says it changed.'
        : ''
    }
    watchButton.addEventListener('click', () => {
      const watch = watches.get(uri)
      if (watch) {
        watch.stop()
        watches.delete(uri)
      } else {
        const entry = {
          updates: 0,
          last: undefined as number | undefined,
          stop: mcp.watchResource(uri, () => {
            entry.updates++
            entry.last = Date.now()
            if (pane.dataset.uri === uri) {
              paint()
              void read()
            }
          }),
        }
        watches.set(uri, entry)
      }
      paint()
    })
    pane.dataset.uri = uri
    fill(
      pane,
      ...header(
        item,
        'Resource',
        h(
          'dl',
          { class: 'facts' },
          h('dt', {}, 'URI'),
          h('dd', {}, h('code', {}, uri)),
          typeof item.mimeType === 'string' && [h('dt', {}, 'Type'), h('dd', {}, item.mimeType)],
          typeof item.size === 'number' && [h('dt', {}, 'Size'), h('dd', {}, `${item.size} bytes`)],
        ),
      ),
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', onclick: () => void read() }, 'Read'), watchButton),
      updates,
      output,
    )
    paint()
  }

  function template(item: Item) {
    const uriTemplate = String(item.uriTemplate)
    const output = h('div', { class: 'output', 'aria-live': 'polite' })
    const preview = h('code', {}, uriTemplate)
    const variables = templateVariables(uriTemplate)
    const fields = schemaForm({
      type: 'object',
      properties: Object.fromEntries(variables.map((v) => [v, { type: 'string' }])),
      required: variables,
    })
    const expand = () => expandTemplate(uriTemplate, fields.read() as Record<string, string>)
    const form = actionForm(fields, 'Read', () => {
      const uri = expand()
      preview.textContent = uri
      void run(output, { method: 'resources/read', params: { uri } }, (options) => mcp.readResource(uri, options), renderReadResult)
    })
    attachCompletions(form, mcp, { type: 'ref/resource', uri: uriTemplate })
    fill(pane, ...header(item, 'Resource template', h('p', {}, 'URI: ', preview)), form, output)
  }

  // A resource_link in a result opens that resource here and reads it.
  onOpenResource((uri) => {
    delete pane.dataset.uri
    resource({ name: uri, uri })
    pane.querySelector<HTMLButtonElement>('.actions button.primary')?.click()
    pane.scrollIntoView({ block: 'start' })
  })

  return {
    show(kind: ListKind, item: Item) {
      delete pane.dataset.uri
      ;({ tools: tool, prompts: prompt, resources: resource, resourceTemplates: template })[kind](item)
    },
    clear() {
      for (const watch of watches.values()) watch.stop()
      watches.clear()
      delete pane.dataset.uri
      fill(pane, h('p', { class: 'hint' }, 'Pick a tool, prompt or resource from the catalogue.'))
    },
  }
}
