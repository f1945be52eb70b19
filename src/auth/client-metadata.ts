// Client ID Metadata Document: the JSON an app hosts at an https URL, which is then its client_id at any AS that
// supports CIMD (no registration call, and it works when the server moves to another AS).

export interface ClientMetadataInput {
  /** The https URL (with a path) the document is served from; it becomes the client_id. */
  clientMetadataUrl: string
  clientName: string
  redirectUris: string[]
  clientUri?: string
  logoUri?: string
  scope?: string
}

/** The document to serve at `clientMetadataUrl` (as JSON). Throws TypeError for a client id that is not https. */
export function clientMetadataDocument(input: ClientMetadataInput): Record<string, unknown> {
  const url = new URL(input.clientMetadataUrl)
  if (url.protocol !== 'https:' || url.pathname === '/') {
    throw new TypeError(`A Client ID Metadata Document URL must be https with a path, got ${input.clientMetadataUrl}`)
  }
  return {
    client_id: input.clientMetadataUrl,
    client_name: input.clientName,
    redirect_uris: input.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...(input.clientUri && { client_uri: input.clientUri }),
    ...(input.logoUri && { logo_uri: input.logoUri }),
    ...(input.scope && { scope: input.scope }),
  }
}
