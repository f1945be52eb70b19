// A page whose Content-Security-Policy has no 'unsafe-eval' sees no securitypolicyviolation from nanomcp: zod/mini
// objects never take zod's JIT path (only classic `zod` objects probe `new Function` to decide on it), and the
// quick checks of accepts.ts walk the schemas without eval. The control shows the page does report a caught eval.
import { describe, expect, it } from 'vitest'

function strictPolicy(): string[] {
  const meta = document.createElement('meta')
  meta.httpEquiv = 'Content-Security-Policy'
  // 'unsafe-inline' only because the test runner's page needs it; eval is what is under test.
  meta.content = "script-src 'self' 'unsafe-inline'"
  document.head.append(meta)
  const seen: string[] = []
  document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
  return seen
}

/**
 * A caught eval, and the violation it reports: violation events are queued in order, so once this one arrives
 * every violation caused before it has arrived too. No sleep, however slow the machine.
 */
function caughtEval(): Promise<void> {
  const reported = new Promise<void>((resolve) => document.addEventListener('securitypolicyviolation', () => resolve(), { once: true }))
  try {
    // eslint-disable-next-line no-new-func
    new Function('')
  } catch {
    // The CSP refuses it: the throw is what a probe like zod's catches.
  }
  return reported
}

describe('under a CSP without unsafe-eval', () => {
  it('checking valid and malformed results raises no securitypolicyviolation, where a caught eval does', async () => {
    const seen = strictPolicy()
    await caughtEval()
    expect(seen).toEqual(['script-src eval'])
    seen.length = 0

    const { Client, StreamableHttpTransport } = await import('../index')
    const { parseResult, ServerNotificationSchema, ToolSchema } = await import('./index')
    const client = new Client(new StreamableHttpTransport('http://127.0.0.1:9/mcp'))
    expect(parseResult('tools/list', { tools: [{ name: 'a', inputSchema: { type: 'object' } }] }).tools).toHaveLength(1)
    expect(() => parseResult('tools/list', { tools: [{ name: 'a' }] })).toThrow('result.tools[0].inputSchema: required object')
    expect(ToolSchema.safeParse({ name: 1 }).success).toBe(false)
    expect(ServerNotificationSchema.safeParse({ method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }).success).toBe(true)
    await client.close()
    // The control marks the end: everything above reported before it, so it must be the only violation seen.
    await caughtEval()
    expect(seen).toEqual(['script-src eval'])
  })
})
