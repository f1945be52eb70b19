// The app's Content-Security-Policy, built from what its resource declares (`_meta.ui.csp`) and what the host
// grants. Strict by default: nothing undeclared is reachable, no eval, no blob: scripts, no workers.
import type { CspGrant, UiCsp, UiPermissions } from './types'
import { AppResourceError } from '../errors/app-resource-error'

// A host source and nothing else: optional scheme, optional `*.` label, host, optional port and path. Quotes,
// `;`, `,`, whitespace, keywords ('unsafe-eval'), bare `*` and scheme-only sources (`https:`, `data:`) cannot
// match, so no declared value can add a directive or widen one beyond a named host.
const SOURCE = /^(?:(?:https?|wss?):\/\/)?(?:\*\.)?[a-z\d-]+(?:\.[a-z\d-]+)*(?::(?:\d{1,5}|\*))?(?:\/[\w\-.~%/]*)?$/i

/** Checks every declared domain; throws AppResourceError `csp` naming the first that is not a plain source. */
export function sources(list: unknown, key: string): string[] {
  if (list === undefined) return []
  if (!Array.isArray(list)) throw new AppResourceError('csp', `_meta.ui.csp.${key} must be a list of origins`)
  for (const value of list) {
    if (typeof value !== 'string' || !SOURCE.test(value)) {
      throw new AppResourceError('csp', `_meta.ui.csp.${key} holds ${JSON.stringify(value)}, which is no plain origin; refused`)
    }
  }
  return list
}

/** The policy text for a grant (what goes in the app document's CSP `<meta>`). */
export function buildCsp(grant: CspGrant = {}): string {
  const join = (...parts: (string | false | undefined)[]) => parts.filter(Boolean).join(' ')
  const resources = sources(grant.resourceDomains, 'resourceDomains').join(' ')
  const connect = sources(grant.connectDomains, 'connectDomains').join(' ')
  const frames = sources(grant.frameDomains, 'frameDomains').join(' ')
  const base = sources(grant.baseUriDomains, 'baseUriDomains').join(' ')
  const blob = grant.blob && 'blob: data:'
  return [
    "default-src 'none'",
    join("script-src 'self' 'unsafe-inline'", grant.unsafeEval && "'unsafe-eval'", blob, resources),
    join("style-src 'self' 'unsafe-inline'", blob, resources),
    join("img-src 'self' data:", grant.blob && 'blob:', resources),
    join("font-src 'self' data:", grant.blob && 'blob:', resources),
    join("media-src 'self' data:", grant.blob && 'blob:', resources),
    connect ? `connect-src 'self' ${connect}` : "connect-src 'none'",
    `frame-src ${frames || "'none'"}`,
    `worker-src ${grant.workers ? "'self' blob:" : "'none'"}`,
    `base-uri ${base || "'self'"}`,
    "object-src 'none'",
    "form-action 'none'",
  ].join('; ')
}

/**
 * The opt-in for apps that need `eval`, `blob:`/`data:` scripts or workers (three.js scenes, PDF renderers):
 * `mountApp(el, { …, csp: permissiveCsp })`. It still grants only the domains the resource declared: what it
 * gives up is protection against script the app builds at run time (a string it evaluates, a blob it creates).
 */
export const permissiveCsp = (requested: UiCsp): CspGrant => ({ ...requested, unsafeEval: true, blob: true, workers: true })

const FEATURES: Record<keyof UiPermissions, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
}

/** Only the four known permissions that were granted, as an object to echo and an `allow` attribute. */
export function grantedPermissions(granted: UiPermissions | undefined): { permissions: UiPermissions; allow: string } {
  const permissions: UiPermissions = {}
  const allow: string[] = []
  for (const key of Object.keys(FEATURES) as (keyof UiPermissions)[]) {
    if (granted?.[key]) {
      permissions[key] = {}
      allow.push(FEATURES[key])
    }
  }
  return { permissions, allow: allow.join('; ') }
}
