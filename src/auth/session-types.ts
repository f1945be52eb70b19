// Internal types passed between the session's modules (authorization step, token step, orchestration); apart because types stay apart from logic.
import type { AuthorizationServer } from 'oauth4webapi'
import type { RegisteredClient } from './registration'

/** What a sign-in needs after the redirect: kept in memory, and in sessionStorage in redirect mode. */
export interface PendingFlow {
  state: string
  verifier: string
  issuer: string
  as: AuthorizationServer
  client: RegisteredClient
  resource?: string
  scopes: string[]
  server: string
  returnTo?: string
}

/** What discovery and registration settled for the server: where and as whom to sign in, for which scopes. */
export interface Context {
  server: URL
  as: AuthorizationServer
  client: RegisteredClient
  resource?: string
  /** Scopes the next authorization asks for. */
  scopes: string[]
}
