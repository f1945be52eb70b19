import { duration } from './duration'
import { DEFAULT_MAX_BODY_BYTES } from './http'
import { noop, type Debug } from './pending'
import { viaProxy } from './proxy-url'
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
 * Reads a transport's url and options. A proxy prefix that can never work, or an `endpointTimeout` setTimeout cannot
 * honour, is the app's mistake: said here, by the constructor, not on the first request (or the first fallback).
 */
export function settings(url: string | URL, options: HttpTransportOptions, defaultEndpointTimeout: number): Settings {
  const href = String(url)
  if (typeof options.proxy === 'string') viaProxy(href, options.proxy)
  return {
    url: href,
    max: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    debug: options.debug ?? noop,
    endpointTimeout: duration('endpointTimeout', options.endpointTimeout, defaultEndpointTimeout),
  }
}
