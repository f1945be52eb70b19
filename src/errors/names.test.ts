// The error classes as an app's bundler ships them: minified, classes renamed. Their names must survive, or
// `err.name` reads "e" and logs lose the one word that says what went wrong.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { rolldown } from 'rolldown'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const dir = new URL('.', import.meta.url).pathname
let out: string
let modules: Record<string, Record<string, new (...args: any[]) => Error>>

beforeAll(async () => {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  const bundle = await rolldown({ input: Object.fromEntries(files.map((file) => [file.slice(0, -3), join(dir, file)])) })
  const { output } = await bundle.generate({ format: 'es', minify: true, entryFileNames: '[name].mjs', chunkFileNames: '[name].mjs' })
  await bundle.close()
  out = await mkdtemp(join(tmpdir(), 'nanomcp-errors-'))
  for (const chunk of output) if (chunk.type === 'chunk') await writeFile(join(out, chunk.fileName), chunk.code)
  modules = {}
  for (const file of files) modules[file.slice(0, -3)] = await import(pathToFileURL(join(out, `${file.slice(0, -3)}.mjs`)).href)
})

afterAll(() => rm(out, { recursive: true, force: true }))

// One instance of every class, built from the minified code.
const samples: [string, string, unknown[]][] = [
  ['abort-error', 'AbortError', ['stop']],
  ['http-error', 'HttpError', [500, new Headers(), 'boom']],
  ['input-required-error', 'InputRequiredError', ['needs input', {}, 1]],
  ['network-error', 'NetworkError', ['http://x/mcp', new TypeError('fetch failed'), false]],
  ['protocol-error', 'ProtocolError', ['malformed-json', 'bad']],
  ['redirect-error', 'RedirectError', ['http://x/mcp', 'http://y/mcp', 307]],
  ['rpc-error', 'RpcError', [-32000, 'nope']],
  ['timeout-error', 'TimeoutError', ['tools/list', 10]],
  ['unsupported-version-error', 'UnsupportedVersionError', [['1999-01-01'], ['2026-07-28']]],
]

describe('error classes after minification', () => {
  it('the minifier did rename the classes (so the names below come from the code, not from the class names)', async () => {
    const code = (await readdir(out)).length
    expect(code).toBeGreaterThan(0)
    expect(modules['http-error']!.HttpError!.name).not.toBe('HttpError')
  })

  it.each(samples)('%s keeps name %s and String(err) starts with it', (file, name, args) => {
    const Class = modules[file]?.[name]
    expect(Class, `${file} exports ${name}`).toBeDefined()
    const error = new Class!(...args)
    expect(error.name).toBe(name)
    expect(String(error).startsWith(`${name}:`)).toBe(true)
    expect(error.stack?.startsWith(`${name}:`)).toBe(true)
    expect(error).toBeInstanceOf(modules['mcp-error']!.McpError!)
  })

  it('every error file has a sample here, so a new class cannot skip the check', async () => {
    const files = (await readdir(dir)).filter((file) => file.endsWith('-error.ts')).map((file) => file.slice(0, -3))
    expect(files.filter((file) => file !== 'mcp-error').sort()).toEqual(samples.map(([file]) => file).sort())
  })
})
