// The host context an app starts with, measured from the page and the element, and the diff that decides
// whether a change is worth a `host-context-changed`.
import type { Tool } from '../schemas/types'
import type { DisplayMode, HostContext } from './types'

const media = (query: string) => globalThis.matchMedia?.(query).matches ?? false

export const theme = (): 'light' | 'dark' => (media('(prefers-color-scheme: dark)') ? 'dark' : 'light')

export const dimensions = (element: Element) => ({ width: Math.round(element.clientWidth) })

export function initialContext(element: Element, tool: Tool, modes: DisplayMode[], given: HostContext | undefined): HostContext {
  return {
    toolInfo: { tool },
    theme: theme(),
    displayMode: 'inline',
    availableDisplayModes: modes,
    containerDimensions: dimensions(element),
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: navigator.userAgent,
    platform: 'web',
    deviceCapabilities: { touch: media('(pointer: coarse)'), hover: media('(hover: hover)') },
    ...given,
  }
}

/** The keys of `next` whose value differs from `current` (compared as JSON: contexts are plain data). */
export function changed(current: HostContext, next: HostContext): HostContext | undefined {
  const diff: HostContext = {}
  let any = false
  for (const key of Object.keys(next)) {
    if (JSON.stringify(current[key]) !== JSON.stringify(next[key])) {
      diff[key] = next[key]
      any = true
    }
  }
  return any ? diff : undefined
}
