// What the typed helpers of Client need beyond one `request()`: whole lists (every page followed), and the
// outputSchema check of tool calls, with the tools that declare one as the client saw them in tools/list.
import type { ExtensionMethod, Method, ParamsOf, ResultOf } from '../schemas/method-map'
import type { Tool } from '../schemas/types'
import type { RequestOptions, ServerNotification } from './types'
import { ProtocolError } from '../errors/protocol-error'
import { load } from '../transport/load'
import { LISTS } from './validate'

type Result = Record<string, unknown>

export interface ListOptions extends Pick<RequestOptions, 'signal' | 'timeout' | 'onInvalidItem'> {
  /** Most pages to follow before failing with ProtocolError('pagination'). Default 1000. */
  maxPages?: number
}

export type ListMethod = keyof typeof LISTS

/** What the helpers call: the client's own request(). */
export interface Requester {
  request(method: ExtensionMethod, params?: Result, options?: RequestOptions): Promise<Result>
}

/** Every item of a list, all pages followed (at most `maxPages`); a repeated cursor is a ProtocolError. */
export async function listAll<M extends ListMethod>(client: Requester, method: M, options: ListOptions = {}): Promise<ResultOf<M>[(typeof LISTS)[M]]> {
  const { maxPages = 1000, ...rest } = options
  const field = LISTS[method]
  const items: unknown[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (let page = 1; ; page++) {
    if (page > maxPages) throw new ProtocolError('pagination', `${method} did not end within ${maxPages} pages (maxPages)`)
    const params: ParamsOf<Method> = cursor === undefined ? {} : { cursor }
    const result = await client.request(method as ExtensionMethod, params, rest)
    items.push(...(result[field] as unknown[]))
    const next = result.nextCursor as string | undefined
    // Only absence ends a list: an empty string is a valid cursor.
    if (next === undefined) return items as never
    if (seen.has(next)) throw new ProtocolError('pagination', `${method} repeated a cursor on page ${page}: the list would never end`)
    seen.add(next)
    cursor = next
  }
}

/**
 * The tools with an outputSchema from the tools/list answers this client saw, by name: where callTool finds the
 * schema to check a result against. Only those are kept: a list of 10,000 tools would otherwise cost a Map entry
 * each, for the few callTool checks.
 */
export class OutputSchemas {
  #tools: Map<string, Tool> | undefined

  /** A checked tools/list page: remembers its tools' schemas (a tool listed again without one loses it). */
  learn(method: string, result: Result): void {
    if (method !== 'tools/list') return
    const known = (this.#tools ??= new Map())
    for (const tool of result.tools as Tool[]) if (tool.outputSchema) known.set(tool.name, tool)
    else if (known.size) known.delete(tool.name)
  }

  /** A changed tool list makes the remembered schemas stale. */
  noticed(notification: ServerNotification): void {
    if (notification.method === 'notifications/tools/list_changed') this.#tools = undefined
  }

  /**
   * Checks a tools/call result against the tool's outputSchema (OutputSchemaError when it does not match). Without a
   * listing seen yet, lists once to find the schema; a listing that fails is not retried on every call: the tools
   * stay unknown, and their output unchecked.
   */
  async check(client: Requester, name: string, result: ResultOf<'tools/call'>, options: RequestOptions | undefined): Promise<void> {
    if (!this.#tools) {
      await listAll(client, 'tools/list', { signal: options?.signal, timeout: options?.timeout, onInvalidItem: () => undefined }).catch(() => (this.#tools ??= new Map()))
    }
    const tool = this.#tools?.get(name)
    // The validator loads only now, the first time a tool with an outputSchema is called.
    if (tool?.outputSchema) await (await load('outputSchema validator', () => import('./output-schema'), options?.signal)).checkOutput(tool, result)
  }
}
