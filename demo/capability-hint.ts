// An older server's tool that needed sampling, elicitation or roots fails in words of its own ("the client did not
// declare the elicitation capability"). When the page declared none of them, that failure gets a line naming the
// toggle that would have declared them, with a button that shows it.
import { h, isRecord } from './dom'

/** The toggle's label in index.html: the hint names it word for word. */
export const LEGACY_TOGGLE_LABEL = 'Answer sampling, input and roots requests from older servers'

const ASKED_FOR = /\b(sampling|createMessage|elicit\w*|roots)\b/i

/** The words of a failed call: an error's message, or the text of an `isError` tool result. */
function failureText(outcome: unknown): string {
  if (outcome instanceof Error) return outcome.message
  if (!isRecord(outcome) || outcome.isError !== true || !Array.isArray(outcome.content)) return ''
  return outcome.content.map((c) => (isRecord(c) && typeof c.text === 'string' ? c.text : '')).join('\n')
}

/** The hint for `outcome`, when it is a legacy-era failure that mentions what the page left undeclared. */
export function capabilityHint(outcome: unknown, context: { era: string | undefined; declared: boolean; show: () => void }): HTMLElement | undefined {
  if (context.era !== 'legacy' || context.declared) return undefined
  const asked = ASKED_FOR.exec(failureText(outcome))?.[1]
  if (!asked) return undefined
  return h(
    'p',
    { class: 'warn', 'data-testid': 'capability-hint' },
    `This older server asked for ${asked.toLowerCase().startsWith('elicit') ? 'input (elicitation)' : asked.toLowerCase() === 'createmessage' ? 'sampling' : asked}, which the page did not declare: turn on “${LEGACY_TOGGLE_LABEL}” under Headers and options, then connect again. `,
    h('button', { type: 'button', class: 'small', onclick: context.show }, 'Show the option'),
  )
}
