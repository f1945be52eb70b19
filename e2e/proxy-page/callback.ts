import { handleOAuthCallback } from '../../src/index'

handleOAuthCallback()
