// Server instructions are Markdown: rendered with markdown-it, and still treated as data. markdown-it runs with
// raw HTML off (a <script> or <img onerror> in the text comes out as text), links are kept only for http(s) and
// mailto, and images become links (a huge or tracking image is never fetched). Its output is then read in an
// inert document (DOMParser runs nothing and loads nothing) and rebuilt from an allow-list of elements, so
// nothing but text, structure and checked links reaches the page.
import MarkdownIt from 'markdown-it'
import { h } from './dom'

const SAFE_URL = /^(https?:|mailto:)/i

const md = new MarkdownIt({ html: false, linkify: true })
md.validateLink = (url) => SAFE_URL.test(url.trim())
md.renderer.rules.image = (tokens, index) => {
  const token = tokens[index]!
  const src = String(token.attrGet('src') ?? '')
  const alt = String(token.content || src)
  return `<a href="${md.utils.escapeHtml(src)}">${md.utils.escapeHtml(alt)} (image)</a>`
}

const KEEP = new Set(['p', 'em', 'strong', 's', 'code', 'pre', 'ul', 'ol', 'li', 'blockquote', 'hr', 'br', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'a'])

function rebuild(node: Node): Node[] {
  if (node.nodeType === Node.TEXT_NODE) return [document.createTextNode(node.textContent ?? '')]
  if (!(node instanceof Element)) return []
  const children = [...node.childNodes].flatMap(rebuild)
  const tag = node.tagName.toLowerCase()
  if (!KEEP.has(tag)) return children
  // Headings step down under the card's own h2/h3.
  const name = (/^h[1-6]$/.test(tag) ? `h${Math.min(6, Number(tag[1]) + 3)}` : tag) as keyof HTMLElementTagNameMap
  if (tag !== 'a') return [h(name, {}, children)]
  const href = node.getAttribute('href') ?? ''
  if (!SAFE_URL.test(href)) return children
  return [h('a', { href, target: '_blank', rel: 'noopener noreferrer nofollow' }, children)]
}

/** Markdown as DOM nodes: structure, text and http(s)/mailto links only. */
export function renderMarkdown(text: string): Node[] {
  const inert = new DOMParser().parseFromString(md.render(text), 'text/html')
  return [...inert.body.childNodes].flatMap(rebuild)
}
