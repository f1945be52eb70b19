import { duration } from './duration'
import { DEFAULT_MAX_BODY_BYTES } from './http'
import { noop, type Debug } from './pending'
import type { HttpTransportOptions } from './types'

/** What both HTTP transports make of their options, read once. */
export interface Settings {
  url: string
  /** Largest body or SSE event accepted. */
  max: number
  debug: Debug
  /** `endpointTimeout` in ms, Infinity for none. */
  endpointTimeout: number
}

/**
 * Reads a transport's url and options. An `endpointTimeout` setTimeout cannot honour is the app's mistake: said
 * here, by the constructor, not at the first fallback to HTTP+SSE.
 */
export function settings(url: string | URL, options: HttpTransportOptions, defaultEndpointTimeout: number): Settings {
  return {
    url: String(url),
    max: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    debug: options.debug ?? noop,
    endpointTimeout: duration('endpointTimeout', options.endpointTimeout, defaultEndpointTimeout),
  }
}
