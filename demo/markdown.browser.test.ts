import { describe, expect, it } from 'vitest'
import { renderMarkdown } from './markdown'

const render = (text: string) => {
  const root = document.createElement('div')
  root.append(...renderMarkdown(text))
  document.body.append(root)
  return root
}

describe('renderMarkdown', () => {
  it('renders structure, emphasis, code and http links', () => {
    const root = render('# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n[docs](https://example.com/docs)')
    expect(root.querySelector('h4')?.textContent).toBe('Title')
    expect(root.querySelector('strong')?.textContent).toBe('bold')
    expect(root.querySelector('code')?.textContent).toBe('code')
    expect(root.querySelectorAll('li')).toHaveLength(2)
    const link = root.querySelector('a')!
    expect(link.href).toBe('https://example.com/docs')
    expect(link.rel).toBe('noopener noreferrer nofollow')
  })

  it('keeps raw HTML and scripts as text, never as elements', () => {
    ;(window as { __md?: unknown }).__md = undefined
    const root = render('<script>window.__md = 1</script>\n\n<img src=x onerror="window.__md = 2">\n\n<b onclick="x()">b</b>')
    expect(root.querySelectorAll('script, img, b, [onerror], [onclick]')).toHaveLength(0)
    expect(root.textContent).toContain('<script>window.__md = 1</script>')
    expect(root.textContent).toContain('<img src=x onerror=')
    expect((window as { __md?: unknown }).__md).toBeUndefined()
  })

  it('drops javascript:, data: and vbscript: links, keeping their text', () => {
    const root = render('[a](javascript:alert(1)) [b](data:text/html,<script>1</script>) [c](vbscript:x) [d](JaVaScRiPt:alert(1)) <javascript:alert(1)>')
    expect([...root.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([])
    expect(root.textContent).toContain('a')
  })

  it('turns images into links (a huge image is never fetched) and drops unsafe image sources', () => {
    const root = render('![a huge image](https://example.com/huge.png) ![x](javascript:alert(1)) ![y](data:image/png;base64,AAAA)')
    expect(root.querySelectorAll('img')).toHaveLength(0)
    const links = [...root.querySelectorAll('a')]
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com/huge.png'])
    expect(links[0]!.textContent).toBe('a huge image (image)')
  })
})
