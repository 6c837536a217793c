import { z } from 'zod'
import { type MethodTable, type RpcContext, inService, method } from '../rpc/types.js'

/** The `net_` namespace. */
export function netMethods(ctx: Pick<RpcContext, 'config'>): MethodTable {
  const version = String(ctx.config.evmNetworkId)
  return inService('net', {
    /** Handler for `net_version`: the EVM network ID (1 on the C-Chain's public networks). */
    net_version: method(z.tuple([]), () => version),
    /** Handler for `net_listening`. */
    net_listening: method(z.tuple([]), () => true),
    /** Handler for `net_peerCount`: a single local node has no peers. */
    net_peerCount: method(z.tuple([]), () => '0x0'),
  })
}
