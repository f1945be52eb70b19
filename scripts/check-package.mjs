#!/usr/bin/env node
// What `npm pack` ships, checked as an app would meet it: packs (prepare runs the build), then lints the tarball
// with publint (strict) and @arethetypeswrong/cli. The package is ESM-only on purpose, so attw runs with its
// esm-only profile: CommonJS `require` and the pre-exports node10 resolution are out of scope, everything else counts.
// Then the other way people install it: from git, where npm builds a clone of the commit with its prepare script,
// and nanomcp/shared's worker from that install, in a Vite app in Chromium.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkSharedWorker } from './shared-worker-app.mjs'

/** The largest source map the package may carry (bytes). */
const MAX_MAP = 100 * 1024
const dir = mkdtempSync(join(tmpdir(), 'nanomcp-pack-'))
const run = (cmd, args, capture = false) => {
  const result = spawnSync(cmd, args, { stdio: capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.status})`)
  return result.stdout
}
try {
  // prepare's build writes to the same stdout as npm's JSON report, which comes last.
  const out = run('npm', ['pack', '--json', '--pack-destination', dir], true)
  const [packed] = JSON.parse(out.slice(out.search(/^\[/m)))
  const files = packed.files.map((f) => f.path)
  for (const needed of ['dist/index.js', 'dist/index.d.ts', 'README.md', 'LICENSE']) {
    if (!files.includes(needed)) throw new Error(`the package lacks ${needed} (${files.length} files packed)`)
  }
  // nanomcp/shared's worker: one asset an app copies as it is, so it must be finished here.
  const worker = packed.files.find((f) => /^dist\/assets\/worker-[^/]*\.js$/.test(f.path))
  if (!worker) throw new Error('the package lacks the shared worker script (dist/assets/worker-*.js)')
  // Nothing replaces what a library build leaves for an app's bundler in a copied asset, and a browser's worker has
  // no `process`: one `process.env.NODE_ENV` left in it stops the worker at start.
  const workerCode = readFileSync(worker.path, 'utf8')
  if (/\bprocess\.env\b/.test(workerCode)) throw new Error(`${worker.path} reads process.env, which a browser's worker does not have`)
  // A map bundles the sources of everything its file inlines; the worker's would outweigh the rest of the package.
  const heavy = packed.files.filter((f) => f.path.endsWith('.map') && f.size > MAX_MAP)
  if (heavy.length) throw new Error(`source maps over ${MAX_MAP / 1024} KB: ${heavy.map((f) => `${f.path} (${(f.size / 1024).toFixed(0)} KB)`).join(', ')}`)
  console.log(`npm pack: ${files.length} files, ${(packed.size / 1024).toFixed(1)} KB; shared worker ${(worker.size / 1024).toFixed(1)} KB, no map over ${MAX_MAP / 1024} KB`)
  const tarball = join(dir, packed.filename)
  run('node_modules/.bin/publint', ['run', tarball, '--strict'])
  run('node_modules/.bin/attw', [tarball, '--profile', 'esm-only'])

  // The committed HEAD, as `npm i github:<owner>/nanomcp` would get it (uncommitted changes are not in it).
  const app = join(dir, 'app')
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n')
  run('npm', ['install', '--prefix', app, '--no-audit', '--no-fund', '--loglevel', 'error', `git+file://${process.cwd()}`])
  writeFileSync(
    join(app, 'check.mjs'),
    `import { Client, createMcp } from 'nanomcp'
import { ToolSchema } from 'nanomcp/schemas'
if (typeof Client !== 'function' || typeof createMcp !== 'function') throw new Error('nanomcp exports missing')
if (!ToolSchema.safeParse({ name: 'x', inputSchema: { type: 'object' } }).success) throw new Error('nanomcp/schemas broken')
`,
  )
  run('node', [join(app, 'check.mjs')])
  console.log('npm install from git: built by prepare, imports work')
  const shared = await checkSharedWorker(app)
  console.log(`nanomcp/shared in a Vite app, Chromium: ${shared.tools} tools listed and a call answered from the SharedWorker`)
} catch (error) {
  console.error(`✗ ${error.message}`)
  process.exitCode = 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
