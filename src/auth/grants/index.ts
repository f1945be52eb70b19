export { clientCredentials, jwtBearer, enterpriseManaged } from './grants'
export type * from './types'
