// The library never writes to the console: diagnostics go to the `debug` option. Checked on the source of
// the transport and error layers, so a stray console.warn cannot come back unnoticed.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'

it('no console.* in src/transport or src/errors outside tests', async () => {
  const root = new URL('..', import.meta.url).pathname
  const offenders: string[] = []
  for (const dir of ['transport', 'errors']) {
    for (const file of await readdir(join(root, dir), { recursive: true })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue
      const text = await readFile(join(root, dir, file), 'utf8')
      if (/\bconsole\s*\.\s*[a-z]+\s*\(/.test(text)) offenders.push(`${dir}/${file}`)
    }
  }
  expect(offenders).toEqual([])
})
