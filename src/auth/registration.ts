// Which client id to use with an AS, in the MCP spec's order: pre-registered, Client ID Metadata Document,
// Dynamic Client Registration (RFC 7591), else the app must supply one. Registrations are per issuer.
import {
  ClientSecretPost,
  dynamicClientRegistrationRequest,
  None,
  processDynamicClientRegistrationResponse,
  ResponseBodyError,
  type AuthorizationServer,
  type ClientAuth,
} from 'oauth4webapi'
import { OAuthError } from '../errors/oauth-error'
import type { OAuthOptions } from './types'

/** A client as JSON (it travels through sessionStorage in redirect mode); `authFor` turns it into ClientAuth. */
export type RegisteredClient = {
  client_id: string
  client_secret?: string
  token_endpoint_auth_method?: string
}

type Http = (url: string, what: string) => Record<symbol, unknown>

// Per page: one registration per AS issuer and redirect URI, never shared between issuers.
const registrations = new Map<string, Promise<RegisteredClient>>()

/** The token endpoint authentication a secret-holding client uses with `as` (RFC 8414's default is Basic). */
function secretMethod(as: AuthorizationServer): string {
  const supported = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic']
  // A client holding a secret uses it: Basic is what every AS must accept (RFC 6749 §2.3.1).
  return supported.find((m) => m === 'client_secret_basic' || m === 'client_secret_post') ?? 'client_secret_basic'
}

export function authFor(client: RegisteredClient, as: AuthorizationServer): ClientAuth {
  if (!client.client_secret) return None()
  const method = client.token_endpoint_auth_method ?? secretMethod(as)
  return method === 'client_secret_post' ? ClientSecretPost(client.client_secret) : method === 'none' ? None() : basic(client.client_id, client.client_secret)
}

/**
 * client_secret_basic (RFC 6749 §2.3.1). oauth4webapi's own also percent-encodes '-', '_', '.', '!', '~', '*',
 * "'", '(' and ')', which form encoding leaves alone, and ASes that do not decode the Basic user name (the
 * conformance suite's among them) then see another client id. Only what form encoding changes is encoded here.
 */
const basic =
  (id: string, secret: string): ClientAuth =>
  (_as, _client, _body, headers) => {
    const form = (value: string) => encodeURIComponent(value).replace(/%20/g, '+')
    headers.set('authorization', `Basic ${btoa(`${form(id)}:${form(secret)}`)}`)
  }

export async function clientFor(as: AuthorizationServer, o: OAuthOptions, http: Http): Promise<RegisteredClient> {
  if (o.clientId) {
    return { client_id: o.clientId, client_secret: o.clientSecret, token_endpoint_auth_method: o.clientSecret ? secretMethod(as) : 'none' }
  }
  if (o.clientMetadataUrl && as.client_id_metadata_document_supported) {
    return { client_id: o.clientMetadataUrl, token_endpoint_auth_method: 'none' }
  }
  if (!as.registration_endpoint) {
    throw new OAuthError(
      'client_id_required',
      `${as.issuer} offers neither Client ID Metadata Documents nor dynamic registration: pass a clientId registered with it`,
      as.issuer,
    )
  }
  const key = `${as.issuer} ${o.redirectUri}`
  let registration = registrations.get(key)
  if (!registration) {
    registration = register(as, o, http)
    registrations.set(key, registration)
    registration.catch(() => registrations.delete(key))
  }
  return registration
}

async function register(as: AuthorizationServer, o: OAuthOptions, http: Http): Promise<RegisteredClient> {
  const supported = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic']
  try {
    const response = await dynamicClientRegistrationRequest(
      as,
      {
        client_name: o.clientName ?? 'nanomcp',
        redirect_uris: [o.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        // A public client when the AS allows it: a browser cannot keep a secret.
        token_endpoint_auth_method: supported.includes('none') ? 'none' : secretMethod(as),
        application_type: o.applicationType ?? 'web',
        ...(o.scope && { scope: o.scope }),
      },
      http(as.registration_endpoint!, 'registration endpoint') as never,
    )
    const client = await processDynamicClientRegistrationResponse(await lenient(response))
    return {
      client_id: client.client_id,
      client_secret: client.client_secret as string | undefined,
      token_endpoint_auth_method: client.token_endpoint_auth_method as string | undefined,
    }
  } catch (cause) {
    if (cause instanceof OAuthError) throw cause
    const code = cause instanceof ResponseBodyError ? cause.error : undefined
    throw new OAuthError('registration', `Dynamic client registration at ${as.issuer} failed: ${code ?? (cause as Error).message}`, code)
  }
}

/**
 * RFC 7591 §3.2.1 makes `client_secret_expires_at` REQUIRED with a secret, and oauth4webapi insists; some ASes
 * leave it out. Its absence is read as 0, "never expires", which is what those servers mean.
 */
async function lenient(response: Response): Promise<Response> {
  const body = await response.clone().json().catch(() => undefined)
  if (!body?.client_secret || body.client_secret_expires_at !== undefined) return response
  return new Response(JSON.stringify({ ...body, client_secret_expires_at: 0 }), { status: response.status, headers: response.headers })
}
