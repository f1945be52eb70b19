// The authorization-code auth scenarios as an app configures nanomcp's oauth(): the suite's mock AS redirects at
// once, so the "user" step is one GET whose Location is the callback (headless, like the official client's
// harness). Pre-registration takes its credentials from MCP_CONFORMANCE_CONTEXT; basic-cimd uses the suite's
// client metadata URL, which the mock AS accepts as a client id without fetching it.
import { oauth } from '../../dist/index.js'

const REDIRECT_URI = 'http://localhost:3000/callback'
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json'

export function codeFlowAuth(scenario, context = {}, log = () => {}) {
  if (!scenario.startsWith('auth/')) return undefined
  return oauth({
    redirectUri: REDIRECT_URI,
    clientId: context.client_id,
    clientSecret: context.client_secret,
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: 'nanomcp-conformance-adapter',
    debug: log,
    authorize: async (url) => {
      const response = await fetch(url, { redirect: 'manual' })
      const location = response.headers.get('location')
      if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`)
      log(`authorization redirect → ${new URL(location, url).origin}${new URL(location, url).pathname}`)
      return new URL(location, url)
    },
  })
}
