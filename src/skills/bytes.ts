// The raw bytes of a resources/read content item, which is what a skill entry's size and digest cover.

/** UTF-8 bytes of a text item, or the decoded bytes of a base64 blob; undefined when the item has neither. */
export function contentBytes(item: Record<string, unknown>): { bytes: Uint8Array; text?: string } | undefined {
  if (typeof item.text === 'string') return { bytes: new TextEncoder().encode(item.text), text: item.text }
  if (typeof item.blob === 'string') {
    let binary: string
    try {
      binary = atob(item.blob)
    } catch {
      return undefined
    }
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0))
    return { bytes, text: decodeUtf8(bytes) }
  }
  return undefined
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/** `sha256:` and the lowercase hex SHA-256 of the bytes (WebCrypto: browsers, workers, Node 20+). */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))
  return `sha256:${Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('')}`
}
