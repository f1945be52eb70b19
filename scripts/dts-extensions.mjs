#!/usr/bin/env node
// After `tsc` emits dist/**/*.d.ts: relative imports get the `.js` extension the emitted JavaScript has.
// The sources import without extensions (bundler style); in a .d.ts that leaves apps on
// `moduleResolution: node16/nodenext` unable to follow `export * from './client/client'`, and every type is lost
// (@arethetypeswrong/cli: InternalResolutionError). The `.js` files need nothing: Vite writes their extensions.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

const root = resolve(process.argv[2] ?? 'dist')
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\2/g

function* declarations(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* declarations(path)
    else if (entry.name.endsWith('.d.ts')) yield path
  }
}

let changed = 0
for (const file of declarations(root)) {
  const text = readFileSync(file, 'utf8')
  const fixed = text.replace(SPECIFIER, (whole, lead, quote, spec) => {
    if (/\.(js|mjs|cjs|json)$/.test(spec)) return whole
    const base = resolve(dirname(file), spec)
    const target = existsSync(`${base}.d.ts`) ? `${spec}.js` : existsSync(join(base, 'index.d.ts')) ? `${spec}/index.js` : undefined
    if (!target) throw new Error(`${file}: cannot resolve ${spec}`)
    return `${lead}${quote}${target}${quote}`
  })
  if (fixed !== text) {
    writeFileSync(file, fixed)
    changed++
  }
}
console.log(`dts-extensions: ${changed} declaration file(s) given .js import extensions`)
