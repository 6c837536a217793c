import { type MethodTable, type RpcContext, mergeTables } from '../../rpc/types.js'
import { ethBlockMethods } from './blocks.js'
import { ethCallMethods } from './call.js'
import { ethChainMethods } from './chainInfo.js'
import { ethFeeMethods } from './fees.js'
import { ethFilterMethods } from './filters.js'
import { ethProofMethods } from './proof.js'
import { ethSimulateMethods } from './simulate.js'
import { ethStateMethods } from './state.js'
import { ethSubscriptionMethods } from './subscriptions.js'
import { ethTransactionMethods } from './transactions.js'

/** The `eth_` namespace. */
export function ethMethods(ctx: Pick<RpcContext, 'engine' | 'subscriptions' | 'config'>): MethodTable {
  return mergeTables(
    ethChainMethods(ctx),
    ethBlockMethods(ctx),
    ethStateMethods(ctx),
    ethCallMethods(ctx),
    ethTransactionMethods(ctx),
    ethFeeMethods(ctx),
    ethProofMethods(ctx),
    ethFilterMethods(ctx),
    ethSubscriptionMethods(ctx),
    ethSimulateMethods(ctx),
  )
}
