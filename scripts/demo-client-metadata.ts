// The hosted demo's OAuth Client ID Metadata Document (CIMD): `npm run build:demo` with DEMO_SITE_URL set to the
// site's public https address (e.g. https://<owner>.github.io/<repo>/) emits `client-metadata.json` beside
// index.html. That URL is then the page's client_id at any authorization server that supports CIMD, so no
// registration call is needed. Without DEMO_SITE_URL nothing is emitted and the page registers itself (DCR).
//
// The document's client_id must equal the address it is served from, byte for byte, so the URL is known at build
// time; the page (demo/sign-in.ts) compares it with its own location before using it, so a build deployed
// elsewhere falls back to DCR instead of sending a client_id whose redirect_uris point at another site.
import type { Plugin } from 'vite'
import { CALLBACK_PAGE } from '../demo/callback-page.ts'
import { clientMetadataDocument } from '../src/auth/client-metadata.ts'

export const CLIENT_METADATA_FILE = 'client-metadata.json'

/** The site's base address with exactly one trailing slash (files resolve beside index.html, not above it). */
function siteBase(raw: string): URL {
  const url = URL.parse(raw)
  if (url?.protocol !== 'https:') throw new TypeError(`DEMO_SITE_URL must be the site's https address (a CIMD client_id is https), got "${raw}"`)
  url.search = ''
  url.hash = ''
  if (!url.pathname.endsWith('/')) url.pathname += '/'
  return url
}

/**
 * Emits the document when `siteUrl` is given and tells the page its URL through
 * `import.meta.env.DEMO_CLIENT_METADATA_URL` (empty when there is none, so the page fetches nothing).
 * A site URL that is not https fails the build: CIMD client ids must be https.
 */
export function demoClientMetadata(siteUrl: string | undefined): Plugin {
  const base = siteUrl ? siteBase(siteUrl) : undefined
  const url = base && new URL(CLIENT_METADATA_FILE, base).href
  const document =
    base &&
    url && {
      ...clientMetadataDocument({
        clientMetadataUrl: url,
        clientName: 'nanomcp demo',
        redirectUris: [new URL(CALLBACK_PAGE, base).href],
        clientUri: base.href,
      }),
      // The helper leaves the DCR field out; a served page is a web client, as its DCR registration says too.
      application_type: 'web',
    }
  return {
    name: 'nanomcp-demo-client-metadata',
    config: () => ({ define: { 'import.meta.env.DEMO_CLIENT_METADATA_URL': JSON.stringify(url ?? '') } }),
    generateBundle() {
      if (document) this.emitFile({ type: 'asset', fileName: CLIENT_METADATA_FILE, source: `${JSON.stringify(document, null, 2)}\n` })
    },
  }
}
