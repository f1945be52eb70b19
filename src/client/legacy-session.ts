// The legacy session itself lives in legacy/ and is loaded on demand. This file stays only because modern.ts
// still imports Held from here; once that import names './held', it can go.
export { Held } from './held'
