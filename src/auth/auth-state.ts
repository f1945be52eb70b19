// How the session writes `$auth`: every OAuthError of a step also ends there, with its issuer; apart so that rule is written once, not at each step.
import type { WritableAtom } from 'nanostores'
import { OAuthError } from '../errors/oauth-error'
import type { AuthState } from './types'

export class AuthStateWriter {
  readonly #$auth: WritableAtom<AuthState>

  constructor($auth: WritableAtom<AuthState>) {
    this.#$auth = $auth
  }

  get(): AuthState {
    return this.#$auth.get()
  }

  set(state: AuthState): void {
    this.#$auth.set(state)
  }

  /** Any OAuthError `run` throws is shown in $auth as well (unless a step already put it there). */
  async track<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (error) {
      if (error instanceof OAuthError && this.get().error !== error) {
        this.set({ ...this.get(), status: error.code === 'interaction_required' ? 'required' : 'error', error })
      }
      throw error
    }
  }

  /** Runs a step of the flow at `issuer`; an OAuthError it throws ends in `$auth` as that issuer's error. */
  async at<T>(issuer: string, run: () => T | Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (error) {
      if (error instanceof OAuthError) this.set({ status: 'error', issuer, error })
      throw error
    }
  }

  /** Puts `error` in $auth (keeping what it says of issuer and scopes) and returns it, for `throw`. */
  fail(error: OAuthError, state: Partial<AuthState> = this.get()): OAuthError {
    this.set({ ...state, status: 'error', error })
    return error
  }
}
