import { z } from 'zod'
import { chainConfigJSON } from '../../engine/rules/genesis.js'
import { hex } from '../../rpc/format.js'
import { type MethodTable, type RpcContext, inServiceOne, method } from '../../rpc/types.js'
import { BLACKHOLE } from '../../engine/chain/chain.js'
import { chainIdMethods } from './chainId.js'
import { subnetEvmMethods } from './subnetEvm.js'

/** Chain identity and node status methods of `eth_`. */
export function ethChainMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  const chainConfig = chainConfigJSON(engine.rules.genesis, engine.rules.heliconTime)
  const { subnetEvm } = engine.rules
  return {
    ...chainIdMethods(engine.chainId),
    /** Handler for `eth_syncing`: a single node is always in sync. */
    eth_syncing: inServiceOne(
      'internal-eth',
      method(z.tuple([]), () => false),
    ),
    /** Handler for `eth_coinbase`: coreth's etherbase, the fee blackhole (or the coinbase anvil_setCoinbase set, as anvil answers). */
    eth_coinbase: inServiceOne(
      'eth',
      method(z.tuple([]), () => hex(engine.dev.overrides.coinbase ?? BLACKHOLE)),
    ),
    /** Handler for `eth_getChainConfig` (Avalanche extension; coreth: internal/ethapi/api_extra.go, libevm params/json.libevm.go). */
    eth_getChainConfig: inServiceOne(
      'internal-blockchain',
      method(z.tuple([]), () => chainConfig),
    ),
    // A subnet-evm chain's config in its form, and its own methods.
    ...(subnetEvm === undefined ? {} : subnetEvmMethods(engine, subnetEvm)),
  }
}
