// The right-hand pane: what one selected tool, prompt, resource or template is, and a form to use it.
import type { ListKind, Mcp, Progress, RequestOptions } from '../src/index'
import { displayName, type Item } from './catalog'
import { fill, h, isRecord, json } from './dom'
import { renderError, renderPromptResult, renderReadResult, renderToolResult } from './render-content'
import { FormInputError, schemaForm } from './schema-form'
import { expandTemplate, templateVariables } from './uri-template'

const HINTS: Record<string, string> = {
  readOnlyHint: 'read-only',
  destructiveHint: 'destructive',
  idempotentHint: 'idempotent',
  openWorldHint: 'open world',
}

export function createDetails(pane: HTMLElement, mcp: Mcp) {
  // Watches outlive the selection: a resource stays subscribed until the user stops it or disconnects.
  const watches = new Map<string, { stop: () => void; updates: number; last?: number }>()

  /** Runs one request with a Cancel button and its progress, then shows its result or its error in `output`. */
  async function run(output: HTMLElement, request: (options: RequestOptions) => Promise<HTMLElement>) {
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
    try {
      output.replaceChildren(await request({ signal: controller.signal, onProgress }))
    } catch (error) {
      output.replaceChildren(renderError(error))
    }
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
      actionForm(schemaForm(item.inputSchema), 'Call tool', (args) =>
        run(output, async (options) => renderToolResult(await mcp.callTool(item.name, args, options))),
      ),
      item.outputSchema !== undefined && h('details', {}, h('summary', {}, 'Output schema'), h('pre', {}, json(item.outputSchema))),
      output,
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
    fill(
      pane,
      ...header(item, 'Prompt'),
      actionForm(schemaForm(schema), 'Get prompt', (values) =>
        run(output, async (options) => renderPromptResult(await mcp.getPrompt(item.name, values as Record<string, string>, options))),
      ),
      output,
    )
  }

  function resource(item: Item) {
    const uri = String(item.uri)
    const output = h('div', { class: 'output', 'aria-live': 'polite' })
    const watchButton = h('button', { type: 'button', 'aria-pressed': 'false' })
    const updates = h('p', { class: 'hint', 'data-testid': 'resource-updates', 'aria-live': 'polite' })
    const read = () => run(output, async (options) => renderReadResult(await mcp.readResource(uri, options)))

    const paint = () => {
      const watch = watches.get(uri)
      watchButton.textContent = watch ? 'Stop watching' : 'Watch for updates'
      watchButton.setAttribute('aria-pressed', String(!!watch))
      updates.textContent = watch
        ? watch.updates
          ? `Updated ${watch.updates} time(s), last at ${new Date(watch.last ?? 0).toLocaleTimeString()}.`
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
      void run(output, async (options) => renderReadResult(await mcp.readResource(uri, options)))
    })
    fill(pane, ...header(item, 'Resource template', h('p', {}, 'URI: ', preview)), form, output)
  }

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
