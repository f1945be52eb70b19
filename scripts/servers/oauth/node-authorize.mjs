// The person at the authorization server, for Node tests: follows the AS's redirects with a path-aware cookie
// jar, fills oidc-provider's dev login and consent forms when shown, and stops at the redirect to `redirectUri`
// (which is never contacted). Reusing one jar keeps the AS session, so a second sign-in skips the login.

export function cookieJar() {
  const jar = new Map()
  return {
    header(url) {
      return [...jar.values()].filter((c) => url.pathname.startsWith(c.path)).map((c) => `${c.name}=${c.value}`).join('; ')
    },
    store(response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair, ...attributes] = line.split(';').map((s) => s.trim())
        const at = pair.indexOf('=')
        const name = pair.slice(0, at)
        const value = pair.slice(at + 1)
        const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) || '/'
        const expired = attributes.some((a) => /^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()) || attributes.some((a) => /^max-age=0$/i.test(a))
        if (expired || value === '') jar.delete(`${name};${path}`)
        else jar.set(`${name};${path}`, { name, value, path })
      }
    },
  }
}

/** An `authorize` hook for oauth(): resolves with the callback URL the AS redirected to. */
export function nodeAuthorize(redirectUri, jar = cookieJar(), { login = 'test-user' } = {}) {
  return async function authorize(authorizationUrl) {
    let url = new URL(authorizationUrl)
    let init = { method: 'GET' }
    for (let hops = 0; hops < 20; hops++) {
      const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie: jar.header(url) } })
      jar.store(response)
      init = { method: 'GET' }
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url)
        if (url.href.startsWith(redirectUri)) return url
        continue
      }
      const html = await response.text()
      const form = html.match(/<form[^>]*action="([^"]+)"/)
      const prompt = html.match(/name="prompt" value="([^"]+)"/)
      if (response.status === 200 && form && prompt) {
        const body = new URLSearchParams({ prompt: prompt[1] })
        if (prompt[1] === 'login') {
          body.set('login', login)
          body.set('password', 'anything')
        }
        url = new URL(form[1].replace(/&amp;/g, '&'), url)
        init = { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }
        continue
      }
      throw new Error(`authorization stuck at ${url.pathname} (HTTP ${response.status})`)
    }
    throw new Error('too many redirects at the authorization server')
  }
}
