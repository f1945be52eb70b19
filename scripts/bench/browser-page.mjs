// The page of the browser benchmark, bundled by Vite (browser condition) with both clients in it. It runs the
// same interleaved echo loop as overhead.mjs inside Chromium and hands the per-round medians to the driver.
import { Client as OfficialClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { Client, StreamableHttpTransport } from '../../src/index'
import { captureRequest, replayer } from './capture-request.mjs'
import { interleave } from './interleave.mjs'

const TEXT = 'overhead'
const ECHO = { name: 'echo', arguments: { text: TEXT } }
const CLIENT_INFO = { name: 'nanomcp-bench', version: '1.0.0' }

function checked(call) {
  return async () => {
    const result = await call()
    if (result?.content?.[0]?.text !== TEXT) throw new Error(`echo answered ${JSON.stringify(result)}`)
  }
}

async function measure({ url, rounds, perRound, block, warmup }) {
  const nanomcp = new Client(new StreamableHttpTransport(url), { clientInfo: CLIENT_INFO })
  const official = new OfficialClient(CLIENT_INFO, { versionNegotiation: { mode: 'auto' } })
  await official.connect(new StreamableHTTPClientTransport(new URL(url)))
  const probe = new Client(new StreamableHttpTransport(url), { clientInfo: CLIENT_INFO })
  const wire = await captureRequest(() => probe.request('tools/call', ECHO))
  await probe.close()
  const contenders = {
    raw: checked(replayer(wire)),
    nanomcp: checked(() => nanomcp.request('tools/call', ECHO)),
    official: checked(() => official.callTool(ECHO)),
  }
  await interleave(contenders, { rounds: 1, perRound: warmup, block })
  const timed = await interleave(contenders, { rounds, perRound, block })
  await Promise.all([nanomcp.close(), official.close()])
  return {
    headers: Object.keys(wire.headers).sort(),
    medians: Object.fromEntries(Object.entries(timed).map(([name, { roundMedians }]) => [name, roundMedians])),
  }
}

globalThis.bench = { measure }
