import type { ListKind } from './types'

/** Where each list lives on the wire. Its items are checked by the client (their schemas), not here. */
export interface KindSpec {
  method: string
  /** The result field that holds the page's items. */
  field: string
  /** The field that identifies an item within its list. */
  key: string
  /** The server capability that must be present before the list is asked for. */
  capability: string
}

export const KINDS: Record<ListKind, KindSpec> = {
  tools: { method: 'tools/list', field: 'tools', key: 'name', capability: 'tools' },
  prompts: { method: 'prompts/list', field: 'prompts', key: 'name', capability: 'prompts' },
  resources: { method: 'resources/list', field: 'resources', key: 'uri', capability: 'resources' },
  resourceTemplates: { method: 'resources/templates/list', field: 'resourceTemplates', key: 'uriTemplate', capability: 'resources' },
}
