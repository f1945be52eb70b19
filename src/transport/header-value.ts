// Header values for Mcp-Name and Mcp-Param-* (SEP-2243). fetch refuses header values that are not ByteStrings
// and servers compare values byte for byte, so anything a header cannot carry verbatim travels as
// `=?base64?<Base64 of the UTF-8 bytes>?=`.

const UNSAFE = /[^\x20-\x7e]|^[ \t]|[ \t]$/

/** Encodes a string for an MCP header: as-is when a header carries it verbatim, else the Base64 sentinel. */
export function encodeHeaderValue(value: string): string {
  const looksEncoded = value.startsWith('=?base64?') && value.endsWith('?=')
  return UNSAFE.test(value) || looksEncoded ? `=?base64?${base64(value)}?=` : value
}

function base64(value: string): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte)
  return btoa(binary)
}
