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

// Constructor arguments for the classes that need them to build a message; any other class is built without.
const samples: Record<string, unknown[]> = {
  AbortError: ['stop'],
  HttpError: [500, new Headers(), 'boom'],
  InputRequiredError: ['needs input', {}, 1],
  OAuthError: ['discovery', 'no metadata'],
  NetworkError: ['http://x/mcp', new TypeError('fetch failed'), false],
  CodeLoadError: ['HTTP+SSE transport', new TypeError('Failed to fetch dynamically imported module')],
  OutputSchemaError: ['echo', {}, []],
  ProtocolError: ['malformed-json', 'bad'],
  ProxyError: ['/p/', 'http://x/mcp', 'refused', 'nope', 'timeout'],
  RedirectError: ['http://x/mcp', 'http://y/mcp', 307],
  RpcError: [-32000, 'nope'],
  TimeoutError: ['tools/list', 10],
  UnsupportedVersionError: [['1999-01-01'], ['2026-07-28']],
}

/** Every error class any file in src/errors exports, by its exported name, from the minified build. */
const classes = () => {
  const McpError = modules['mcp-error']!.McpError!
  return Object.values(modules).flatMap((exports) =>
    Object.entries(exports).filter(([, value]) => typeof value === 'function' && value.prototype instanceof McpError),
  )
}

describe('error classes after minification', () => {
  it('the minifier did rename the classes (so the names checked come from the code, not from the class names)', () => {
    expect(modules['http-error']!.HttpError!.name).not.toBe('HttpError')
    expect(classes().map(([name]) => name)).toEqual(expect.arrayContaining(Object.keys(samples)))
  })

  it('every class keeps its exported name: err.name, String(err) and the stack start with it', () => {
    for (const [name, Class] of classes()) {
      const error = new Class(...(samples[name] ?? []))
      expect(error.name, name).toBe(name)
      // A class built without its arguments may have no message: then String(err) is the name alone.
      expect(String(error), name).toMatch(new RegExp(`^${name}(:|$)`))
      expect(error.stack, name).toMatch(new RegExp(`^${name}(:|\\n)`))
    }
  })
})
