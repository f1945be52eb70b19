// Answers an `input_required` round in a modal dialog: one generated form per elicitation, and Accept / Decline /
// Cancel for the round. Plugged into the client as `onInputRequest`, whose promise this dialog settles.
import type { InputRequest } from '../src/index'
import { h, isRecord } from './dom'
import { FormInputError, schemaForm, type SchemaForm } from './schema-form'

type Action = 'accept' | 'decline' | 'cancel'

export function askUser(
  dialog: HTMLDialogElement,
  serverName: string,
  requests: Record<string, InputRequest>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const unsupported = Object.values(requests).find((r) => r.method !== 'elicitation/create')
  // The demo declares only the elicitation capability, so a server asking for anything else broke the rules.
  if (unsupported) return Promise.reject(new Error(`The demo cannot answer ${unsupported.method}`))

  const forms: [string, SchemaForm | undefined][] = []
  const sections = Object.entries(requests).map(([key, request]) => {
    const params = isRecord(request.params) ? request.params : {}
    const message = typeof params.message === 'string' ? params.message : ''
    if (params.mode === 'url') {
      const url = typeof params.url === 'string' ? params.url : ''
      forms.push([key, undefined])
      return h(
        'section',
        { class: 'ask' },
        h('p', {}, message),
        h('p', {}, 'It asks you to open this address (accepting opens it in a new tab):'),
        // Text, never a link: nothing is fetched or opened before the user consents.
        h('p', {}, h('code', { class: 'url' }, url)),
        urlNotes(url),
      )
    }
    const form = schemaForm(params.requestedSchema)
    forms.push([key, form])
    return h('section', { class: 'ask' }, h('p', {}, message), form.element)
  })

  const error = h('p', { class: 'error-text', role: 'alert' })
  const form = h(
    'form',
    { method: 'dialog', class: 'elicitation', novalidate: true },
    h('h2', {}, 'Input requested'),
    h('p', { class: 'hint' }, 'From server ', h('strong', {}, serverName)),
    sections,
    error,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', value: 'accept', class: 'primary' }, 'Accept'),
      h('button', { type: 'submit', value: 'decline' }, 'Decline'),
      h('button', { type: 'submit', value: 'cancel' }, 'Cancel'),
    ),
  )
  dialog.replaceChildren(form)

  return new Promise((resolve, reject) => {
    const finish = (action: Action) => {
      const answers: Record<string, unknown> = {}
      for (const [key, f] of forms) {
        if (action !== 'accept') answers[key] = { action }
        else if (!f) answers[key] = { action: 'accept' }
        else answers[key] = { action: 'accept', content: f.read() }
      }
      if (action === 'accept') openUrls(requests)
      done()
      resolve(answers)
    }
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault()
      const action = ((event.submitter as HTMLButtonElement | null)?.value ?? 'cancel') as Action
      if (action === 'accept' && !form.reportValidity()) return
      try {
        finish(action)
      } catch (e) {
        if (!(e instanceof FormInputError)) throw e
        error.textContent = e.message
      }
    }
    // Escape closes a modal dialog: that is the user cancelling.
    const onCancel = (event: Event) => {
      event.preventDefault()
      finish('cancel')
    }
    const onAbort = () => {
      done()
      reject(signal.reason)
    }
    const done = () => {
      form.removeEventListener('submit', onSubmit)
      dialog.removeEventListener('cancel', onCancel)
      signal.removeEventListener('abort', onAbort)
      dialog.close()
    }
    if (signal.aborted) return reject(signal.reason)
    form.addEventListener('submit', onSubmit)
    dialog.addEventListener('cancel', onCancel)
    signal.addEventListener('abort', onAbort)
    dialog.showModal()
  })
}

/** The host a web (http/https) URL leads to, else '' (such a URL is never opened). */
function hostOf(url: string): string {
  try {
    return /^https?:\/\//i.test(url) ? new URL(url).hostname : ''
  } catch {
    return ''
  }
}

/**
 * What the user should check before consenting (spec: show the domain, warn on punycode): the host the browser
 * will really visit, a warning for internationalized (punycode) names, and a note when accepting opens nothing.
 */
function urlNotes(url: string) {
  const host = hostOf(url)
  if (!host) return h('p', { class: 'warn', 'data-testid': 'url-note' }, 'This is not a web address: accepting answers the server but opens nothing.')
  return [
    h('p', { 'data-testid': 'url-domain' }, 'Domain: ', h('strong', {}, host)),
    host.split('.').some((label) => label.startsWith('xn--')) &&
      h('p', { class: 'warn', 'data-testid': 'url-note' }, 'This domain is internationalized (punycode): make sure it is the site you expect, not a look-alike.'),
  ]
}

/** URL-mode elicitation: the user consented by accepting, so the page opens in its own tab, out of our reach. */
function openUrls(requests: Record<string, InputRequest>) {
  for (const request of Object.values(requests)) {
    const url = isRecord(request.params) && typeof request.params.url === 'string' ? request.params.url : ''
    if (request.params?.mode === 'url' && hostOf(url)) window.open(url, '_blank', 'noopener,noreferrer')
  }
}
