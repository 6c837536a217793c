import { z } from 'zod'
import { type MethodTable, inServiceOne, method } from '../../rpc/types.js'

/**
 * `eth_chainId`, which needs nothing but the genesis: the node answers it from this very entry while
 * the engine still loads (src/startup/earlyListener.ts) and once it runs (chainInfo.ts). Light imports only.
 */
export function chainIdMethods(chainId: bigint): MethodTable {
  const answer = '0x' + chainId.toString(16)
  return {
    /** Handler for `eth_chainId`. */
    eth_chainId: inServiceOne(
      'internal-blockchain',
      method(z.tuple([]), () => answer),
    ),
  }
}
