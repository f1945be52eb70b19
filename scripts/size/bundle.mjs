// Bundle figures, min+gzip -9: one entry bundled by Rolldown as an app's build would bundle it, and the demo page.
import { build } from 'vite'
import { build as rolldown } from 'rolldown'
import { gzipSync } from 'node:zlib'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/** Vite's default build target (baseline-widely-available), so figures match what a Vite app ships. */
const TARGET = ['chrome111', 'edge111', 'firefox114', 'safari16.4', 'ios16.4']

/**
 * Bundles `code` (an entry module re-exporting what an app imports) and returns `{ min, gzip, lazy }`: the entry
 * and every chunk it imports statically, and apart from them (never dropped) the chunks loaded on demand.
 * `external`: ids left out of the bundle (what the app already ships), e.g. zod.
 */
export async function measure(code, external) {
  const dir = mkdtempSync(join(tmpdir(), 'nanomcp-size-'))
  try {
    const input = join(dir, 'entry.ts')
    writeFileSync(input, code)
    // Rolldown (Vite's bundler and Oxc minifier) without Vite's app layer: a Vite app build wraps every dynamic
    // import in its module-preload helper (~0.5 KB gzip), which an app with any lazy route pays once anyway. What
    // a Vite app really downloads, helper and all, is measured by the page scenarios (pages.mjs).
    const out = await rolldown({
      input,
      platform: 'browser',
      write: false,
      // The entry keeps its exports (an app's entry would use them); 'allow-extension' also lets modules shared
      // by the entry and a lazy chunk join the entry chunk, as they do in an app build, instead of becoming extra
      // eager chunks whose import/export glue no app ships.
      preserveEntrySignatures: 'allow-extension',
      external,
      // zod's functions are marked free of side effects (@__NO_SIDE_EFFECTS__), so an app that bundles zod drops
      // the schemas nothing uses; with zod left out of the bundle that mark is unseen, and saying so here keeps
      // a zod-external row from counting unused schemas an app would never ship.
      treeshake: external ? { manualPureFunctions: ['z'] } : undefined,
      logLevel: 'silent',
      transform: { target: TARGET, define: { 'process.env.NODE_ENV': '"production"' } },
      output: { format: 'es', minify: true, comments: false, topLevelVar: true },
    })
    const chunks = out.output.filter((c) => c.type === 'chunk')
    const size = (list) => {
      const js = list.map((c) => c.code).join('\n')
      return { min: Buffer.byteLength(js), gzip: gzipSync(js, { level: 9 }).length }
    }
    const eager = new Set()
    const visit = (chunk) => {
      // An external module (zod, in a zod-external row) is no chunk of ours.
      if (!chunk || eager.has(chunk)) return
      eager.add(chunk)
      for (const name of chunk.imports) visit(chunks.find((c) => c.fileName === name))
    }
    chunks.filter((c) => c.isEntry).forEach(visit)
    return { ...size([...eager]), lazy: size(chunks.filter((c) => !eager.has(c))) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The hosted demo page as `npm run build:demo` builds it: bytes per kind of file, raw and gzip -9. */
export async function measureSite() {
  const out = await build({ configFile: resolve('vite.config.ts'), mode: 'demo', logLevel: 'silent', build: { write: false } })
  const files = (Array.isArray(out) ? out[0] : out).output
  const rows = { HTML: [], JS: [], CSS: [] }
  for (const file of files) {
    const kind = file.fileName.endsWith('.html') ? 'HTML' : file.fileName.endsWith('.js') ? 'JS' : file.fileName.endsWith('.css') ? 'CSS' : undefined
    if (kind) rows[kind].push(file.type === 'chunk' ? file.code : file.source)
  }
  const size = (parts) => ({
    raw: parts.reduce((n, p) => n + Buffer.byteLength(p), 0),
    gzip: parts.reduce((n, p) => n + gzipSync(p, { level: 9 }).length, 0),
  })
  const entries = Object.entries(rows).map(([kind, parts]) => [kind, size(parts)])
  return [...entries, ['total', size(Object.values(rows).flat())]]
}
