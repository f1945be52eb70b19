// The redirect URI's page: hands the authorization server's answer to the demo page that opened the popup (or,
// after a full-page redirect, back to it) and closes.
import { handleOAuthCallback } from '../src/index'

const outcome = handleOAuthCallback()
if (outcome === 'none') document.getElementById('callback-note')!.textContent = 'Nothing to finish here: this page only completes a sign-in started by the demo.'
