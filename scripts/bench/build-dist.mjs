// The Node parts import nanomcp from dist/, as an app would: rebuild it when it is missing or older than src/.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

/** Builds dist/ (JavaScript only: the benchmarks need no .d.ts) unless it is newer than every source file. */
export function ensureDist(root) {
  const entry = join(root, 'dist/index.js')
  if (existsSync(entry) && statSync(entry).mtimeMs >= newestSource(join(root, 'src'))) return false
  const vite = join(root, 'node_modules/.bin/vite')
  const result = spawnSync(vite, ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status}); the benchmarks need dist/`)
  return true
}
