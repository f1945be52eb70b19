export { oauth } from './oauth'
export { handleOAuthCallback } from './callback'
export { sessionTokenStorage, localTokenStorage } from './storage'
export { clientMetadataDocument, type ClientMetadataInput } from './client-metadata'
