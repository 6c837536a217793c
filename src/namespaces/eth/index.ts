import type { MethodTable, RpcContext } from '../../rpc/types.js'
import { mergeTables } from '../../rpc/types.js'
import { ethBlockMethods } from './blocks.js'
import { ethCallMethods } from './call.js'
import { ethChainMethods } from './chainInfo.js'
import { ethFeeMethods } from './fees.js'
import { ethFilterMethods } from './filters.js'
import { ethStateMethods } from './state.js'
import { ethTransactionMethods } from './transactions.js'

/** The `eth_` namespace. */
export function ethMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  return mergeTables(ethChainMethods(ctx), ethBlockMethods(ctx), ethStateMethods(ctx), ethCallMethods(ctx), ethTransactionMethods(ctx), ethFeeMethods(ctx), ethFilterMethods(ctx))
}
