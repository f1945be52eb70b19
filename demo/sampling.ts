// Answers a `sampling/createMessage` input request by hand: the page shows what the server wants the model to
// see (system prompt, messages, limits), the user writes or edits the reply, then approves or declines it.
// There is no model behind the page: the human is the model, and the reply says so in `model`.
import { h, isRecord, json } from './dom'

/** What a sampling answer carries (CreateMessageResult without the `_meta`). */
export interface SampledMessage {
  role: 'assistant'
  content: { type: 'text'; text: string }
  model: string
  stopReason: 'endTurn'
}

/** The user declined a sampling request: the spec has no answer for that, so the call that needed it fails. */
export class SamplingDeclinedError extends Error {
  constructor() {
    super('You declined the sampling request, so the server got no message.')
    this.name = 'SamplingDeclinedError'
  }
}

export const HUMAN_MODEL = 'human (nanomcp demo)'

/** One message as text: text blocks as they are, anything else (images, tool use) as JSON, never as markup. */
function describe(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content]
  return blocks.map((block) => (isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : json(block, 2000))).join('\n')
}

function renderRequest(params: Record<string, unknown>) {
  const messages = Array.isArray(params.messages) ? params.messages : []
  const hints = isRecord(params.modelPreferences) && Array.isArray(params.modelPreferences.hints) ? params.modelPreferences.hints : []
  const limits = [
    typeof params.maxTokens === 'number' && `at most ${params.maxTokens} tokens`,
    typeof params.temperature === 'number' && `temperature ${params.temperature}`,
    hints.length > 0 && `model hints: ${hints.map((hint) => (isRecord(hint) ? String(hint.name) : '?')).join(', ')}`,
  ].filter(Boolean)
  return [
    typeof params.systemPrompt === 'string' && h('p', { 'data-testid': 'sampling-system' }, h('strong', {}, 'System prompt: '), params.systemPrompt),
    h(
      'ol',
      { class: 'log sampling-messages', 'data-testid': 'sampling-messages' },
      messages.map((m) => {
        const role = isRecord(m) && typeof m.role === 'string' ? m.role : '?'
        return h('li', {}, h('strong', {}, `${role}: `), h('pre', {}, describe(isRecord(m) ? m.content : m)))
      }),
    ),
    limits.length > 0 && h('p', { class: 'hint' }, limits.join(' · ')),
  ]
}

/**
 * Shows one sampling request in `dialog` and resolves with the approved reply; rejects with SamplingDeclinedError
 * when the user declines (or presses Escape), and with the signal's reason when the request is abandoned.
 */
export function askSampling(dialog: HTMLDialogElement, serverName: string, params: unknown, signal: AbortSignal): Promise<SampledMessage> {
  const request = isRecord(params) ? params : {}
  const reply = h('textarea', { id: 'sampling-reply', rows: 5, required: true, 'data-testid': 'sampling-reply' })
  const model = h('input', { id: 'sampling-model', value: HUMAN_MODEL })
  const form = h(
    'form',
    { method: 'dialog', class: 'elicitation sampling', novalidate: true },
    h('h2', {}, 'The server asks for a model reply'),
    h('p', { class: 'hint' }, 'From server ', h('strong', {}, serverName), ' (sampling/createMessage). Nothing is sent until you approve.'),
    renderRequest(request),
    h('div', { class: 'field' }, h('label', { for: 'sampling-reply' }, 'Reply (as the assistant)'), reply),
    h('div', { class: 'field' }, h('label', { for: 'sampling-model' }, 'Model name sent back'), model),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', value: 'approve', class: 'primary' }, 'Approve and send'),
      h('button', { type: 'submit', value: 'decline' }, 'Decline'),
    ),
  )
  dialog.replaceChildren(form)

  return new Promise((resolve, reject) => {
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault()
      if ((event.submitter as HTMLButtonElement | null)?.value !== 'approve') return finish(() => reject(new SamplingDeclinedError()))
      if (!form.reportValidity()) return
      const text = reply.value
      finish(() => resolve({ role: 'assistant', content: { type: 'text', text }, model: model.value.trim() || HUMAN_MODEL, stopReason: 'endTurn' }))
    }
    const onCancel = (event: Event) => {
      event.preventDefault()
      finish(() => reject(new SamplingDeclinedError()))
    }
    const onAbort = () => finish(() => reject(signal.reason))
    const finish = (settle: () => void) => {
      form.removeEventListener('submit', onSubmit)
      dialog.removeEventListener('cancel', onCancel)
      signal.removeEventListener('abort', onAbort)
      dialog.close()
      settle()
    }
    if (signal.aborted) return reject(signal.reason)
    form.addEventListener('submit', onSubmit)
    dialog.addEventListener('cancel', onCancel)
    signal.addEventListener('abort', onAbort)
    dialog.showModal()
    reply.focus()
  })
}
