// The DPoP key in Chromium: its private half cannot be exported, and the pair is the one kept in IndexedDB,
// so tokens bound to it survive a reload.
import { describe, expect, it } from 'vitest'
import { dpopKeyPair } from './dpop-key'

function stored(): Promise<CryptoKeyPair | undefined> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('nanomcp-oauth', 1)
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const db = open.result
      const get = db.transaction('keys').objectStore('keys').get('dpop')
      get.onerror = () => reject(get.error)
      get.onsuccess = () => {
        db.close()
        resolve(get.result as CryptoKeyPair | undefined)
      }
    }
  })
}

describe('the DPoP key pair in a browser', () => {
  it('is ES256 with a non-extractable private key, and is the pair kept in IndexedDB', async () => {
    const pair = await dpopKeyPair()
    expect(pair.privateKey.extractable).toBe(false)
    expect(pair.privateKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' })
    await expect(crypto.subtle.exportKey('jwk', pair.privateKey)).rejects.toThrow()
    const saved = await stored()
    expect(saved?.privateKey.extractable).toBe(false)
    const jwk = (key: CryptoKey) => crypto.subtle.exportKey('jwk', key)
    expect(await jwk(saved!.publicKey)).toEqual(await jwk(pair.publicKey))
    expect(await dpopKeyPair()).toBe(pair)
  })
})
