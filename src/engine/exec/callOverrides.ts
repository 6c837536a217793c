import { bigIntToBytes, setLengthLeft } from '@ethereumjs/util'
import type { Block } from '../chain/block.js'
import type { Chain } from '../chain/chain.js'
import { type CallEnv, Executor } from './executor.js'
import type { OwnEvm } from './ownEvm.js'
import type { BlockOverrides } from './simulateOptions.js'

/** geth override.BlockOverrides as eth_call and debug_traceCall apply them (internal/ethapi/override/override.go): eth_simulateV1's fields. */
export type CallBlockOverrides = BlockOverrides

/** The block a call runs in, its header overridden (geth BlockOverrides.MakeHeader). */
export function overriddenBlock(block: Block, o: CallBlockOverrides): Block {
  const h = block.header
  return {
    ...block,
    header: {
      ...h,
      number: o.number ?? h.number,
      timestamp: o.time ?? h.timestamp,
      gasLimit: o.gasLimit ?? h.gasLimit,
      coinbase: o.feeRecipient ?? h.coinbase,
      baseFee: o.baseFeePerGas ?? h.baseFee,
    },
    // The block keeps its hash, under which a Helicon block's executed base fee is kept: the override wins.
    ...(o.baseFeePerGas !== undefined && { executedBaseFee: o.baseFeePerGas }),
  }
}

/**
 * The environment beyond the header (geth BlockOverrides.Apply): PREVRANDAO from prevRandao, else
 * the difficulty (the C-Chain's DIFFICULTY opcode reads it), and BLOBBASEFEE.
 */
export function callEnv(o: CallBlockOverrides): CallEnv {
  const env: CallEnv = {}
  const mixHash = o.prevRandao ?? (o.difficulty === undefined ? undefined : setLengthLeft(bigIntToBytes(o.difficulty), 32))
  if (mixHash !== undefined) env.mixHash = mixHash
  if (o.blobBaseFee !== undefined) env.blobBaseFee = o.blobBaseFee
  return env
}

/** A throwaway executor on a block's state, in the block the overrides make (eth_call's 4th argument). */
export function overriddenExecutor(chain: Chain, block: Block, o: CallBlockOverrides, own?: OwnEvm): Promise<Executor> {
  chain.requireState(block)
  return Executor.create(chain, overriddenBlock(block, o), chain.stateReader(block), callEnv(o), own)
}
