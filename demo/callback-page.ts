/**
 * The OAuth redirect page, relative to index.html. The page's redirect_uri, the hosted build's Client ID Metadata
 * Document and the build's inputs all name it from here: an authorization server refuses a redirect_uri that
 * differs from the registered one by a single byte.
 */
export const CALLBACK_PAGE = 'demo/oauth-callback.html'
