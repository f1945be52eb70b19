// Completions: prompt arguments autocomplete through completion/complete on servers that offer completions,
// on both eras.
import { connect, control, expect, field, item, openDemo, screenshot, tab, test } from './helpers'

for (const kind of ['modern', 'legacy'] as const) {
  test(`${kind}: a prompt argument suggests the server's completions, and a suggestion fills the field`, async ({ page, request, servers }) => {
    await control(request, servers[kind], 'reset')
    await openDemo(page)
    await connect(page, kind)
    await expect(page.getByTestId('capabilities')).toContainText('completions')
    await tab(page, 'prompts').click()
    await item(page, 'greet').click()
    await field(page, 'name').fill('Ada')
    await field(page, 'style').fill('p')
    const suggestions = page.getByTestId('suggestions-style')
    await expect(suggestions.getByRole('button', { name: 'pirate' })).toBeVisible()
    await expect(suggestions.getByRole('button', { name: 'formal' })).toHaveCount(0)
    await expect(page.getByTestId('transcript')).toContainText('completion/complete')
    await field(page, 'style').fill('')
    await expect(suggestions.getByRole('button', { name: 'formal' })).toBeVisible()
    await suggestions.getByRole('button', { name: 'casual' }).click()
    await expect(field(page, 'style')).toHaveValue('casual')
    if (kind === 'modern') await screenshot(page, 'completions', false)
    await page.getByRole('button', { name: 'Get prompt' }).click()
    await expect(page.getByTestId('prompt-result')).toContainText('Ada')
  })
}
