// One `input_required` round (or a task's input requests), split by kind: elicitations go to the elicitation
// dialog as one form, each sampling request gets its own dialog, and `roots/list` is answered from the roots
// list the user keeps. Anything else was never declared, so a server asking for it broke the rules.
import type { InputRequest } from '../src/index'
import { askUser } from './elicitation'
import type { Root } from './roots'
import { askSampling } from './sampling'

export interface RoundDeps {
  dialog: HTMLDialogElement
  serverName: string
  roots: () => Root[]
  /** The elicitation dialog (injectable for tests). */
  elicit?: typeof askUser
  sample?: typeof askSampling
}

/** The capabilities a page that uses answerRound can honestly declare on 2026-07-28 requests. */
export const ROUND_CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } as const

export async function answerRound(deps: RoundDeps, requests: Record<string, InputRequest>, signal: AbortSignal): Promise<Record<string, unknown>> {
  const { dialog, serverName, elicit = askUser, sample = askSampling } = deps
  const unknown = Object.values(requests).find((r) => !['elicitation/create', 'sampling/createMessage', 'roots/list'].includes(r.method))
  if (unknown) throw new Error(`The demo cannot answer ${unknown.method}: it never declared it`)
  const of = (method: string) => Object.fromEntries(Object.entries(requests).filter(([, r]) => r.method === method))
  const answers: Record<string, unknown> = {}
  const elicitations = of('elicitation/create')
  if (Object.keys(elicitations).length) Object.assign(answers, await elicit(dialog, serverName, elicitations, signal))
  for (const [key, request] of Object.entries(of('sampling/createMessage'))) answers[key] = await sample(dialog, serverName, request.params, signal)
  for (const key of Object.keys(of('roots/list'))) answers[key] = { roots: deps.roots() }
  return answers
}
