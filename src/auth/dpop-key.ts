// The DPoP key pair (RFC 9449): ES256, private key non-extractable. Browsers keep it in IndexedDB (a CryptoKey
// survives there without ever being exported), so tokens bound to it stay usable after a reload; elsewhere
// (Node, workers without IndexedDB) it lives in memory for the life of the process.
import { generateKeyPair } from 'oauth4webapi'

const DB = 'nanomcp-oauth'
const STORE = 'keys'
const ID = 'dpop'

let pair: Promise<CryptoKeyPair> | undefined

export function dpopKeyPair(): Promise<CryptoKeyPair> {
  return (pair ??= load().catch(() => generateKeyPair('ES256')))
}

async function load(): Promise<CryptoKeyPair> {
  if (typeof indexedDB === 'undefined') return generateKeyPair('ES256')
  const db = await request(
    Object.assign(indexedDB.open(DB, 1), {
      onupgradeneeded: (event: IDBVersionChangeEvent) => (event.target as IDBOpenDBRequest).result.createObjectStore(STORE),
    }),
  )
  try {
    const saved = await request<CryptoKeyPair | undefined>(db.transaction(STORE).objectStore(STORE).get(ID))
    if (saved?.privateKey && saved.publicKey) return saved
    const fresh = await generateKeyPair('ES256')
    await request(db.transaction(STORE, 'readwrite').objectStore(STORE).put(fresh, ID))
    return fresh
  } finally {
    db.close()
  }
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
}
