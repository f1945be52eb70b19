// The machine-to-machine auth scenarios as an app configures them: the suite hands the credentials in
// MCP_CONFORMANCE_CONTEXT (a client id and secret, a PKCS#8 key, a workload JWT, an IdP ID token), the app passes
// them to nanomcp's grant of that kind. Other scenarios get no grant (undefined).
import { clientCredentials, enterpriseManaged, jwtBearer } from '../../dist/index.js'

const CURVES = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }

/** A PKCS#8 PEM private key as a non-extractable WebCrypto signing key (what an app loads from its secret store). */
async function importPkcs8(pem, alg = 'ES256') {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64')
  const params = CURVES[alg] ? { name: 'ECDSA', namedCurve: CURVES[alg] } : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
  return crypto.subtle.importKey('pkcs8', der, params, false, ['sign'])
}

export async function machineAuth(scenario, context = {}) {
  switch (scenario) {
    case 'auth/client-credentials-basic':
      return clientCredentials({ clientId: context.client_id, clientSecret: context.client_secret })
    case 'auth/client-credentials-jwt':
      return clientCredentials({ clientId: context.client_id, privateKey: await importPkcs8(context.private_key_pem, context.signing_algorithm) })
    case 'auth/wif-jwt-bearer':
      return jwtBearer({ clientId: context.client_id, assertion: () => context.valid_jwt })
    case 'auth/enterprise-managed-authorization':
      return enterpriseManaged({
        clientId: context.client_id,
        clientSecret: context.client_secret,
        idp: { issuer: context.idp_issuer, tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id },
        idToken: () => context.idp_id_token,
      })
    default:
      return undefined
  }
}
