// Just enough RFC 6570 for resource templates: variable names, and expansion of the common operators
// ({var}, {+var}, {#var}, {/var}, {.var}, {?a,b}, {&a}) with single string values.
const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g

const names = (list: string) => list.split(',').map((v) => v.replace(/(\*|:\d+)$/, '').trim()).filter(Boolean)

export function templateVariables(template: string): string[] {
  const out = new Set<string>()
  for (const match of template.matchAll(EXPRESSION)) for (const name of names(match[2] ?? '')) out.add(name)
  return [...out]
}

export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_, op: string, list: string) => {
    // {+var} and {#var} keep reserved characters such as "/" so a path can be typed as is.
    const encode = op === '+' || op === '#' ? encodeURI : encodeURIComponent
    const present = names(list).filter((n) => values[n] !== undefined && values[n] !== '')
    if (!present.length) return ''
    const parts = present.map((n) => (op === '?' || op === '&' || op === ';' ? `${n}=${encode(values[n] ?? '')}` : encode(values[n] ?? '')))
    const joiner = { '': ',', '+': ',', '#': ',', '/': '/', '.': '.', ';': ';', '?': '&', '&': '&' }[op] ?? ','
    const prefix = { '': '', '+': '', '#': '#', '/': '/', '.': '.', ';': ';', '?': '?', '&': '&' }[op] ?? ''
    return prefix + parts.join(joiner)
  })
}
