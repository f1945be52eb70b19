// Which side may use a tool, from `_meta.ui.visibility`: absent means both the model and the app; `[]` neither.
import type { Tool } from '../schemas/types'
import { AppResourceError } from '../errors/app-resource-error'

type Meta = { ui?: { resourceUri?: unknown; visibility?: unknown }; 'ui/resourceUri'?: unknown }

const meta = (tool: Tool | undefined): Meta => ((tool as { _meta?: Meta } | undefined)?._meta ?? {}) as Meta

function visibleTo(tool: Tool | undefined, who: 'model' | 'app'): boolean {
  const visibility = meta(tool).ui?.visibility
  // Anything that is not a list is treated as absent: a server typo should not hide a tool from everyone.
  return !Array.isArray(visibility) || visibility.includes(who)
}

/** True when the model may see and call `tool`: leave the others out of what an agent offers the model. */
export const modelVisible = (tool: Tool): boolean => visibleTo(tool, 'model')

/** True when an app may call `tool` through its host. */
export const appCallable = (tool: Tool | undefined): boolean => !!tool && visibleTo(tool, 'app')

/**
 * The tool's `ui://` resource URI (nested key first, then the older flat key every example server still emits).
 * Throws AppResourceError `no-ui` without one, `uri` when it is not `ui://`.
 */
export function uiResourceUri(tool: Tool): string {
  const m = meta(tool)
  const uri = m.ui?.resourceUri ?? m['ui/resourceUri']
  if (uri === undefined) throw new AppResourceError('no-ui', `tool "${tool?.name}" has no UI (no _meta.ui.resourceUri)`)
  if (typeof uri !== 'string' || !uri.startsWith('ui://')) {
    throw new AppResourceError('uri', `tool "${tool.name}": resourceUri must be a ui:// URI, not ${JSON.stringify(uri)}`, String(uri))
  }
  return uri
}
