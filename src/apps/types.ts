// Public types of nanomcp/apps. Types only.
import type { ReadableAtom } from 'nanostores'
import type { ListenFilter, RequestOptions, ServerNotification, Subscription } from '../client/types'
import type { CallToolResult, ContentBlock, Implementation, Tool } from '../schemas/types'
import type { ListState } from '../stores/types'

type Requester = { request(method: string, params?: Record<string, unknown>, options?: Pick<RequestOptions, 'signal' | 'timeout'>): Promise<Record<string, unknown>> }

/**
 * How an app hears of list changes. A store (createMcp, shared-tab client) has list atoms that already follow
 * `list_changed`; a bare Client has `listen()`. `connect()` says whether the server announces changes at all.
 */
interface Lists {
  readonly $tools?: ReadableAtom<ListState<Tool>>
  readonly $resources?: ReadableAtom<ListState<unknown>>
  connect?(): Promise<{ capabilities: Record<string, unknown> }>
  listen?(filter: ListenFilter, handler: (notification: ServerNotification) => void): Pick<Subscription, 'close'>
}

/** Anything nanomcp gives that can reach a server: a Client, a createMcp() store, or a shared-tab client. */
export type AppMcp = (Requester & Lists) | ({ readonly client: Requester } & Lists)

/** `_meta.ui.csp` of a `ui://` resource: the origins the app declares it needs. */
export interface UiCsp {
  connectDomains?: string[]
  resourceDomains?: string[]
  frameDomains?: string[]
  baseUriDomains?: string[]
}

/**
 * What the host grants, from which the app's Content-Security-Policy is built. The domain lists are sanitized
 * (a value that could smuggle a directive is refused); the three switches are off unless a host opts in
 * (`permissiveCsp` turns them on).
 */
export interface CspGrant extends UiCsp {
  /** `'unsafe-eval'` in `script-src` (apps that evaluate strings: three.js scenes, AJV). */
  unsafeEval?: boolean
  /** `blob:` and `data:` as script, style, font and media sources. */
  blob?: boolean
  /** `worker-src 'self' blob:` (a PDF renderer's worker). */
  workers?: boolean
}

/** `_meta.ui.permissions`: each present key (value `{}`) asks for that browser feature. */
export interface UiPermissions {
  camera?: object
  microphone?: object
  geolocation?: object
  clipboardWrite?: object
}

export type DisplayMode = 'inline' | 'fullscreen' | 'pip'

/** What the host tells the app about where it is shown; keys not listed here pass through. */
export interface HostContext {
  toolInfo?: { id?: string | number; tool: Tool }
  theme?: 'light' | 'dark'
  styles?: { variables?: Record<string, string>; css?: { fonts?: string } }
  displayMode?: DisplayMode
  availableDisplayModes?: DisplayMode[]
  containerDimensions?: { width?: number; maxWidth?: number; height?: number; maxHeight?: number }
  locale?: string
  timeZone?: string
  userAgent?: string
  platform?: 'web' | 'desktop' | 'mobile'
  deviceCapabilities?: { touch?: boolean; hover?: boolean }
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number }
  [key: string]: unknown
}

/** What the app said about itself in `ui/initialize`. */
export interface AppInfo {
  appInfo?: Implementation
  appCapabilities?: Record<string, unknown>
  /** The protocol version the app offered (the host always answers 2026-01-26). */
  protocolVersion?: string
}

export interface AppState {
  status: 'loading' | 'ready' | 'error' | 'closed'
  /** Why it failed (status 'error'), or the last message the app got wrong (a reply went back; status unchanged). */
  error?: Error
  app?: AppInfo
  /** The last size the app reported and the frame took (px). */
  size?: { width?: number; height?: number }
  displayMode: DisplayMode
}

/** Answer of a host callback for `ui/message` and `ui/open-link`: `{ isError: true }` tells the app it failed. */
export type CallbackResult = void | { isError?: boolean }

export interface MountAppOptions {
  mcp: AppMcp
  /** The tool whose app to show: its `_meta.ui.resourceUri` (or the older flat `_meta["ui/resourceUri"]`). */
  tool: Tool
  /** The tool's complete arguments; or stream them later with `view.inputPartial()` and `view.input()`. */
  input?: Record<string, unknown>
  /** The tool's result, or the promise of it; a rejection is sent to the app as `tool-cancelled` with its reason. */
  result?: CallToolResult | Promise<CallToolResult>
  /** The URL of nanomcp's sandbox.html on ANOTHER origin than this page (a same-origin URL throws). */
  sandbox: string | URL
  /** Merged over the defaults (platform web, theme from prefers-color-scheme, locale, time zone, size of `element`). */
  hostContext?: HostContext
  /** Names this host in the `ui/initialize` answer. Default `{ name: 'nanomcp', version: '0' }`. */
  hostInfo?: Implementation
  /** Decides the policy from what the resource asked for. Default: grant the declared domains, nothing more. */
  csp?: (requested: UiCsp) => CspGrant
  /** Browser features for the app. Default: none, whatever it asks for. */
  permissions?: UiPermissions | ((requested: UiPermissions) => UiPermissions)
  /** `ui/message`: the app adds a message to the conversation. Absent: not advertised, refused. */
  onMessage?: (message: { role: 'user'; content: ContentBlock[] }) => CallbackResult | Promise<CallbackResult>
  /** `ui/open-link` with an http(s) URL (others are refused before this is called). Absent: refused. */
  onOpenLink?: (url: string) => CallbackResult | Promise<CallbackResult>
  /** `ui/update-model-context`: what the model should see of the app in later turns. Absent: refused. */
  onModelContext?: (context: { content?: ContentBlock[]; structuredContent?: Record<string, unknown> }) => void | Promise<void>
  /** `ui/request-display-mode`: returns the mode now in effect. Absent: only `inline`, and the answer is the current mode. */
  onDisplayMode?: (mode: DisplayMode) => DisplayMode | Promise<DisplayMode>
  /** The app's log (`notifications/message`). Absent: logging not advertised, logs dropped. */
  onLog?: (log: { level: string; logger?: string; data: unknown }) => void
  /** The app asks to be closed; call `view.close()` to agree. Absent: ignored. */
  onRequestTeardown?: () => void
  /** Aborting it closes the view, as `close()` does. */
  signal?: AbortSignal
  /** ms from mounting until the app says `initialized`; then `$state` is `error` (TimeoutError). Default 30 000. */
  timeout?: number
  /** ms `close()` waits for the app's answer to `ui/resource-teardown`. Default 2 000. */
  teardownTimeout?: number
  /** Largest HTML accepted, in characters. Default 10 000 000. */
  maxHtmlSize?: number
}

export interface AppView {
  readonly $state: ReadableAtom<AppState>
  /** The complete arguments (sent once; later calls and partials are dropped). */
  input(args: Record<string, unknown>): void
  /** Arguments so far, while the model still streams them. */
  inputPartial(args: Record<string, unknown>): void
  /** The tool's result (sent once; a rejected promise becomes `cancel(reason)`). */
  result(result: CallToolResult | Promise<CallToolResult>): void
  cancel(reason?: string): void
  /** Changes of the host context; sent as `ui/notifications/host-context-changed` when something differs. */
  setContext(partial: HostContext): void
  /** Asks the app to tear down (bounded wait), removes the frame and every listener. */
  close(): Promise<void>
}
