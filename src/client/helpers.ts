// Typed helpers every Client has, on both eras: whole lists, tool calls checked against their outputSchema,
// prompts, resources, completion, ping and the log level. Each is one `request()` (or one per page) away from
// the raw protocol, typed by the schemas in src/schemas.
import type { CallToolParams, CompleteParams, ExtensionMethod, GetPromptParams, Method, ParamsOf, ReadResourceParams, ResultOf } from '../schemas/method-map'
import type { LoggingLevel, Prompt, Resource, ResourceTemplate, Tool } from '../schemas/types'
import type { Era, RequestOptions, ServerDescription, ServerNotification } from './types'
import { ProtocolError } from '../errors/protocol-error'
import { RpcError } from '../errors/rpc-error'
import { load } from '../transport/load'
import { checkItems, LISTS } from './validate'

type Result = Record<string, unknown>

export interface ListOptions extends Pick<RequestOptions, 'signal' | 'timeout' | 'onInvalidItem'> {
  /** Most pages to follow before failing with ProtocolError('pagination'). Default 1000. */
  maxPages?: number
}

type ListMethod = keyof typeof LISTS

/**
 * The typed half of Client: what an app calls most, built on `request()`. Abstract so Client supplies the
 * transport-facing half; kept apart so neither file does two jobs.
 */
export abstract class Helpers {
  abstract request(method: string | ExtensionMethod, params?: Result, options?: RequestOptions): Promise<Result>
  abstract connect(options?: Pick<RequestOptions, 'signal' | 'timeout'>): Promise<ServerDescription>
  abstract readonly era: Era | undefined
  /**
   * The tools with an outputSchema from the tools/list this client saw, by name: where callTool finds one. Only
   * those are kept: a list of 10,000 tools would otherwise cost a Map entry each, for the few callTool checks.
   */
  #tools: Map<string, Tool> | undefined
  #logLevel: LoggingLevel | undefined

  /** Every tool, all pages followed (at most `maxPages`). */
  listTools(options?: ListOptions): Promise<Tool[]> {
    return this.#all('tools/list', options)
  }

  listPrompts(options?: ListOptions): Promise<Prompt[]> {
    return this.#all('prompts/list', options)
  }

  listResources(options?: ListOptions): Promise<Resource[]> {
    return this.#all('resources/list', options)
  }

  listResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]> {
    return this.#all('resources/templates/list', options)
  }

  /**
   * Calls a tool. When the tool declares an `outputSchema` (from a tools/list this client has seen, else one
   * listing fetched now), a result whose `structuredContent` does not match rejects with OutputSchemaError,
   * which carries the result.
   */
  async callTool(params: CallToolParams, options?: RequestOptions): Promise<ResultOf<'tools/call'>> {
    const result = (await this.request('tools/call', params, options)) as ResultOf<'tools/call'>
    // Listing only to find a schema is worth it once; a tool still unknown afterwards has none we can check.
    // A listing that fails is not retried on every call: the tools stay unknown (and their output unchecked).
    if (!this.#tools) await this.listTools({ signal: options?.signal, timeout: options?.timeout, onInvalidItem: () => undefined }).catch(() => (this.#tools ??= new Map()))
    const tool = this.#tools?.get(params.name)
    // The checker and its validator load only now, the first time a tool with an outputSchema is called.
    if (tool?.outputSchema) await (await load('outputSchema validator', () => import('./output-schema'), options?.signal)).checkOutput(tool, result)
    return result
  }

  getPrompt(params: GetPromptParams, options?: RequestOptions): Promise<ResultOf<'prompts/get'>> {
    return this.request('prompts/get', params, options) as Promise<ResultOf<'prompts/get'>>
  }

  readResource(params: ReadResourceParams, options?: RequestOptions): Promise<ResultOf<'resources/read'>> {
    return this.request('resources/read', params, options) as Promise<ResultOf<'resources/read'>>
  }

  complete(params: CompleteParams, options?: RequestOptions): Promise<ResultOf<'completion/complete'>> {
    return this.request('completion/complete', params, options) as Promise<ResultOf<'completion/complete'>>
  }

  /**
   * Older servers: a `ping` round trip. 2026-07-28 removed ping in both directions, so there it rejects
   * (RpcError -32601, nothing sent): any request shows the server is alive.
   */
  async ping(options?: Pick<RequestOptions, 'signal' | 'timeout'>): Promise<void> {
    await this.connect(options)
    if (this.era === 'modern') throw new RpcError(-32601, '2026-07-28 has no ping: any request shows the server is alive')
    await this.request('ping', {}, options)
  }

  /**
   * Asks for log messages of `level` and above. Older servers: `logging/setLevel` for the session. 2026-07-28:
   * no request; every later request carries the level in `_meta` (a request's own `logLevel` wins), and the
   * `notifications/message` it brings go to `onLog` or, without one, to `onNotification`.
   */
  async setLoggingLevel(level: LoggingLevel, options?: Pick<RequestOptions, 'signal' | 'timeout'>): Promise<void> {
    await this.connect(options)
    if (this.era === 'modern') this.#logLevel = level
    else await this.request('logging/setLevel', { level }, options)
  }

  /**
   * What `request()` adds around the era machinery: the client-wide log level on 2026-07-28, list items
   * checked (or dropped and reported), and the tools remembered for callTool.
   */
  protected checked(method: string, options: RequestOptions, notify: (n: ServerNotification) => void, send: (options: RequestOptions) => Promise<Result>): Promise<Result> {
    const level = this.#logLevel
    // The log message was checked on its way to onLog (modern.ts).
    const sent = level ? { logLevel: level, onLog: (params: Result) => notify({ jsonrpc: '2.0', method: 'notifications/message', params } as ServerNotification), ...options } : options
    return send(sent).then(async (result) => {
      const checked = checkItems(method, result, options.onInvalidItem)
      if (method === 'tools/list') {
        const known = (this.#tools ??= new Map())
        // A tool listed again without its outputSchema must lose the one remembered.
        for (const tool of checked.tools as Tool[]) if (tool.outputSchema) known.set(tool.name, tool)
        else if (known.size) known.delete(tool.name)
      }
      return checked
    })
  }

  /** A notification on its way to the app: a changed tool list makes the remembered outputSchemas stale. */
  protected noticed(notification: ServerNotification): void {
    if (notification.method === 'notifications/tools/list_changed') this.#tools = undefined
  }

  async #all<M extends ListMethod>(method: M, options: ListOptions = {}): Promise<ResultOf<M>[(typeof LISTS)[M]]> {
    const { maxPages = 1000, ...rest } = options
    const field = LISTS[method]
    const items: unknown[] = []
    const seen = new Set<string>()
    let cursor: string | undefined
    for (let page = 1; ; page++) {
      if (page > maxPages) throw new ProtocolError('pagination', `${method} did not end within ${maxPages} pages (maxPages)`)
      const params: ParamsOf<Method> = cursor === undefined ? {} : { cursor }
      const result = await this.request(method, params, rest)
      items.push(...(result[field] as unknown[]))
      const next = result.nextCursor as string | undefined
      // Only absence ends a list: an empty string is a valid cursor.
      if (next === undefined) return items as never
      if (seen.has(next)) throw new ProtocolError('pagination', `${method} repeated a cursor on page ${page}: the list would never end`)
      seen.add(next)
      cursor = next
    }
  }
}
