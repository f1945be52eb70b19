// The Chat panel with a tool that has an MCP App (the official basic-vanillajs example's get-time): under
// `npm run demo`, which serves the sandbox page on a second loopback origin, the app shows in the transcript under
// the model's call and shows that call's result; the hosted build without a sandbox URL shows the call and its
// text result only.
import { connect, expect, openDemo, SCREENSHOTS, startDemo, test } from './helpers'
import { startOpenAiStandIn, type StandIn } from './openai-stand-in'

let model: StandIn
test.beforeEach(async () => {
  model = await startOpenAiStandIn({ name: 'get-time', arguments: {} })
})
test.afterEach(() => model.close())

async function askForTheTime(page: import('@playwright/test').Page) {
  const chat = page.getByTestId('chat')
  await expect(chat).toBeVisible()
  await expect(page.getByTestId('chat-tools').locator('[data-tool="get-time"]')).toBeChecked()
  await chat.getByLabel('Endpoint').fill(model.endpoint)
  await chat.getByLabel('API key').fill('sk-test')
  await chat.getByLabel('Message').fill('What time is it on the server?')
  await chat.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByTestId('chat-result')).toContainText(/\d{4}-\d\d-\d\dT/, { timeout: 30_000 })
  await expect(page.getByTestId('chat-log').locator('.chat-model')).toContainText('The tool answered:')
}

test('npm run demo: the app of a tool the model called shows in the transcript, with that call’s result', async ({ page }) => {
  test.setTimeout(240_000)
  const demo = await startDemo()
  const { port } = demo
  try {
    const sandbox = /MCP Apps sandbox \(a second origin\): (\S+)/.exec(demo.output())?.[1] ?? ''
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`http://127.0.0.1:${port}/`)
    await connect(page, 'basic-vanillajs')
    await askForTheTime(page)

    const slot = page.getByTestId('chat-log').locator('.chat-call [data-testid="chat-app"]')
    await expect(slot).toHaveCount(1)
    await expect(slot.locator('iframe')).toHaveAttribute('src', sandbox)
    const shown = (await page.getByTestId('chat-result').textContent())!.match(/\d{4}-\d\d-\d\dT[\d:.]+Z?/)![0]
    // The app got the same call's result: the time it shows is the one the server answered the model's call with.
    const app = slot.frameLocator('iframe').frameLocator('iframe')
    await expect(app.locator('#server-time')).toHaveText(shown, { timeout: 30_000 })
    // The demo's result panel shows no app of its own for this: the model's call is the chat's.
    await expect(page.getByTestId('app-slot').locator('iframe')).toHaveCount(0)
    // "New chat" closes the app and removes its frame.
    await page.getByTestId('chat').getByRole('button', { name: 'New chat' }).click()
    await expect(page.locator('[data-testid="chat-app"] iframe')).toHaveCount(0)
    await askForTheTime(page)
    await expect(slot.frameLocator('iframe').frameLocator('iframe').locator('#server-time')).toHaveText(/\d{4}-/, { timeout: 30_000 })
    await slot.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENSHOTS}/chat-app.png` })
  } finally {
    await demo.stop()
  }
})

test('the hosted build without a sandbox URL: the call and its text result, no app frame', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await openDemo(page)
  await connect(page, 'basic-vanillajs')
  await askForTheTime(page)
  await expect(page.getByTestId('chat-app')).toHaveCount(0)
  await expect(page.getByTestId('chat-log').locator('iframe')).toHaveCount(0)
})
