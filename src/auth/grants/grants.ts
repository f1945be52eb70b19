// The machine-to-machine grants as `auth` options for the transports (and createMcp): client credentials,
// the JWT bearer grant, and enterprise-managed authorization. Building one costs a few hundred bytes; the OAuth
// code (discovery, oauth4webapi) loads when the server first answers 401.
import type { AuthProvider } from '../../transport/types'
import { grantProvider, refuseInPage } from './provider'
import type { ClientCredentialsOptions, EnterpriseOptions, JwtBearerOptions } from './types'

/**
 * OAuth client credentials (a backend or an agent acting as itself), authenticated with `client_secret_basic`
 * (`clientSecret`) or `private_key_jwt` (`privateKey`, a CryptoKey or a private JWK).
 *
 * @example
 * new StreamableHttpTransport(url, { auth: clientCredentials({ clientId: 'agent', clientSecret: process.env.SECRET }) })
 */
export function clientCredentials(options: ClientCredentialsOptions): AuthProvider {
  refuseInPage('clientCredentials', options)
  if (!options.clientId) throw new TypeError('clientCredentials: clientId is required')
  if (!options.clientSecret === !options.privateKey) throw new TypeError('clientCredentials: give exactly one of clientSecret and privateKey')
  return grantProvider(options, (flows, found, scope) => flows.clientCredentials(options, found, scope))
}

/**
 * The RFC 7523 JWT bearer grant (workload identity): `assertion()` returns a JWT from the platform, audience the
 * AS issuer it is given; it is asked for again whenever a new token is needed.
 */
export function jwtBearer(options: JwtBearerOptions): AuthProvider {
  refuseInPage('jwtBearer', options)
  if (typeof options.assertion !== 'function') throw new TypeError('jwtBearer: assertion must be a function returning the JWT')
  if (!options.clientId) throw new TypeError('jwtBearer: clientId is required')
  return grantProvider(options, (flows, found, scope) => flows.jwtBearer(options, found, scope))
}

/**
 * Enterprise-managed authorization: the user's ID token is exchanged at the enterprise IdP (RFC 8693) for an
 * ID-JAG addressed to the MCP server's AS, which the JWT bearer grant then trades for an access token.
 */
export function enterpriseManaged(options: EnterpriseOptions): AuthProvider {
  refuseInPage('enterpriseManaged', options)
  if (!options.clientId || !options.clientSecret) throw new TypeError('enterpriseManaged: clientId and clientSecret (at the MCP server\'s AS) are required')
  if (!options.idp?.issuer || !options.idp.clientId) throw new TypeError('enterpriseManaged: idp.issuer and idp.clientId are required')
  return grantProvider(options, (flows, found, scope) => flows.enterprise(options, found, scope))
}
