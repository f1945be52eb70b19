import type { ListKind } from './types'
import { isObject } from '../transport/json-rpc'

export interface KindSpec {
  method: string
  /** The result field that holds the page's items. */
  field: string
  /** The field that identifies an item within its list. */
  key: string
  /** The server capability that must be present before the list is asked for. */
  capability: string
  /** Fields every item needs, and whether each is a string or an object; checked minimally, no schema library. */
  required: Record<string, 'string' | 'object'>
}

export const KINDS: Record<ListKind, KindSpec> = {
  tools: { method: 'tools/list', field: 'tools', key: 'name', capability: 'tools', required: { name: 'string', inputSchema: 'object' } },
  prompts: { method: 'prompts/list', field: 'prompts', key: 'name', capability: 'prompts', required: { name: 'string' } },
  resources: {
    method: 'resources/list',
    field: 'resources',
    key: 'uri',
    capability: 'resources',
    required: { uri: 'string', name: 'string' },
  },
  resourceTemplates: {
    method: 'resources/templates/list',
    field: 'resourceTemplates',
    key: 'uriTemplate',
    capability: 'resources',
    required: { uriTemplate: 'string', name: 'string' },
  },
}


/** Why an item cannot be listed, or undefined when it can. */
export function checkItem(spec: KindSpec, item: unknown): string | undefined {
  if (!isObject(item)) return 'not an object'
  for (const [field, type] of Object.entries(spec.required)) {
    const value = item[field]
    if (type === 'string' ? typeof value !== 'string' : !isObject(value)) return `"${field}" must be ${type === 'string' ? 'a string' : 'an object'}`
  }
  return undefined
}
