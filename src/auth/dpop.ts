// DPoP (RFC 9449) for one session: when an AS gets it, proofs for MCP requests, server nonces; apart because the token step and the session both use it.
import { DPoP, type AuthorizationServer, type DPoPHandle } from 'oauth4webapi'
import { dpopKeyPair } from './dpop-key'
import type { OAuthOptions } from './types'

// oauth4webapi's handle signs proofs for any request and caches nonces; it exposes these on the handle it returns.
interface ProofHandle {
  addProof(url: URL, headers: Headers, htm: string, token: string): Promise<void>
  cacheNonce?(response: Response, url: URL): void
}

export class DpopProofs {
  readonly #o: OAuthOptions
  #handle: DPoPHandle | undefined

  constructor(options: OAuthOptions) {
    this.#o = options
  }

  /** Whether requests to `as` use DPoP: the app allows it and the AS signs with ES256. */
  uses(as: AuthorizationServer): boolean {
    return this.#o.dpop !== false && !!as.dpop_signing_alg_values_supported?.includes('ES256')
  }

  /** True once a handle exists: only then can a server's `use_dpop_nonce` be answered by resending. */
  get active(): boolean {
    return !!this.#handle
  }

  async handle(): Promise<DPoPHandle> {
    return (this.#handle ??= DPoP({}, await dpopKeyPair()))
  }

  /** The handle for a token request to `as`, undefined when it does not use DPoP. */
  async for(as: AuthorizationServer): Promise<DPoPHandle | undefined> {
    return this.uses(as) ? this.handle() : undefined
  }

  /** Another AS: its nonces mean nothing here, and the next handle starts without them. */
  forget(): void {
    this.#handle = undefined
  }

  /** Authorization and DPoP headers for a request to the MCP server with a DPoP-bound token. */
  async headers(request: { url: string; method: string }, token: string): Promise<Record<string, string>> {
    const headers = new Headers()
    await ((await this.handle()) as unknown as ProofHandle).addProof(new URL(request.url), headers, request.method, token)
    return { authorization: `DPoP ${token}`, dpop: headers.get('dpop')! }
  }

  /** A DPoP-Nonce from the MCP server, for the next proof. */
  nonce(response: Response, url: string): void {
    ;(this.#handle as unknown as ProofHandle | undefined)?.cacheNonce?.(response, new URL(url))
  }
}
