// The same bridge in Chromium: aiTools on a createMcp store over the real transport, a generateText tool loop
// with the AI SDK's mock model, and fingerprints from the browser's own crypto.subtle.
import { generateText, isStepCount } from 'ai'
import { afterEach, expect, inject, it } from 'vitest'
import { forgetEras } from '../client/client'
import { createMcp } from '../stores/create-mcp'
import type { Mcp } from '../stores/types'
import { scriptedModel, toolResultsSeen } from '../testing/ai-model'
import { aiTools } from './ai-tools'
import { toolFingerprint } from './fingerprint'

const servers = inject('servers')
const made: Mcp[] = []
afterEach(async () => {
  await Promise.all(made.splice(0).map((mcp) => mcp.close()))
  forgetEras()
})

it('a tool loop in the browser: the call runs on the server and its result reaches the model', async () => {
  const mcp = createMcp(`${servers.modern.url.replace(/\/mcp$/, '')}/s/ai-browser/mcp`, { autoListen: false })
  made.push(mcp)
  const tools = await aiTools(mcp)
  const model = scriptedModel([{ calls: [{ name: 'echo', input: { text: 'from Chromium' } }] }, { text: 'done' }])
  const result = await generateText({ model, tools, prompt: 'echo', stopWhen: isStepCount(3) })
  expect(result.text).toBe('done')
  expect(JSON.stringify(toolResultsSeen(model, 1)[0]!.output)).toContain('from Chromium')
  const echo = mcp.$tools.get().items.find((tool) => tool.name === 'echo')!
  expect(await toolFingerprint(echo)).toMatch(/^[0-9a-f]{64}$/)
})
