import { RpcError } from '../errors/rpc-error'
import type { JsonRpcErrorObject } from '../transport/types'

/** The server's JSON-RPC error object as the RpcError a caller sees. */
export const toRpcError = (error: JsonRpcErrorObject): RpcError => new RpcError(error.code, error.message, error.data)
