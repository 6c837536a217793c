import { z } from 'zod'
import type { MiningControls } from '../../dev/miningControls.js'
import { InvalidParamsError } from '../../engine/base/errors.js'
import { Address } from '../../rpc/schemas.js'
import { type MethodTable, method } from '../../rpc/types.js'
import { LenientU256 } from './params.js'

const U64_MAX = (1n << 64n) - 1n

/** A u64 as anvil takes it (hex or decimal string, JSON number); larger is refused. */
export const LenientU64 = LenientU256.refine((n) => n <= U64_MAX, { message: 'number too large to fit in u64' })

/** evm_mine's optional argument (anvil MineOptions): a timestamp, or `{timestamp?, blocks?}`. */
const MineOptions = z
  .union([z.object({ timestamp: LenientU64.nullable().optional(), blocks: LenientU64.nullable().optional() }).loose(), LenientU64])
  .nullable()
  .optional()

const saturateU64 = (n: bigint): bigint => (n > U64_MAX ? U64_MAX : n)

/**
 * Mining on demand, the mining mode and the next blocks' header fields (anvil's semantics,
 * crates/anvil/src/eth/api.rs; hardhat's names answer `true` where hardhat does).
 */
export function miningMethods(mining: MiningControls): MethodTable {
  const anvilMine = (answer: null | true) =>
    method(z.tuple([LenientU256.nullable().optional(), LenientU256.nullable().optional()]), async ([blocks, interval]) => {
      await mining.mine(saturateU64(blocks ?? 1n), interval === undefined || interval === null ? {} : { interval: saturateU64(interval) })
      return answer
    })
  const setAutomine = method(z.tuple([z.boolean()]), ([on]) => {
    mining.setAutomine(on)
    return null
  })
  const setIntervalMining = method(z.tuple([LenientU64]), ([seconds]) => {
    mining.setIntervalMining(seconds)
    return null
  })
  const getAutomine = method(z.tuple([]), () => mining.automine)
  const setCoinbase = (answer: null | true) =>
    method(z.tuple([Address]), ([address]) => {
      mining.setCoinbase(address)
      return answer
    })
  const setBaseFee = (answer: null | true) =>
    method(z.tuple([LenientU256]), ([fee]) => {
      mining.setNextBlockBaseFee(fee)
      return answer
    })
  const setGasLimit = method(z.tuple([LenientU256]), ([limit]) => {
    mining.setBlockGasLimit(limit)
    return true
  })
  // ACP-176 prices every block (EIP-1559 style): anvil refuses a minimum gas price then.
  const setMinGasPrice = method(z.tuple([LenientU256]), () => {
    throw new InvalidParamsError('anvil_setMinGasPrice is not supported when EIP-1559 is active')
  })
  return {
    /** Handler for `evm_mine`: one block now (or `blocks`), pending transactions included; `"0x0"`. */
    evm_mine: method(z.tuple([MineOptions]), async ([opts]) => {
      const options = typeof opts === 'bigint' ? { timestamp: opts } : { timestamp: opts?.timestamp ?? undefined, blocks: opts?.blocks ?? undefined }
      await mining.mine(options.blocks ?? 1n, options.timestamp === undefined ? {} : { timestamp: options.timestamp })
      return '0x0'
    }),
    /** Handler for `anvil_mine`: `blocks` (1) blocks, the clock moved on `interval` seconds before each. */
    anvil_mine: anvilMine(null),
    hardhat_mine: anvilMine(true),
    /** Handler for `anvil_setAutomine`. */
    anvil_setAutomine: setAutomine,
    evm_setAutomine: setAutomine,
    /** Handler for `anvil_getAutomine`. */
    anvil_getAutomine: getAutomine,
    hardhat_getAutomine: getAutomine,
    /** Handler for `anvil_setIntervalMining`: seconds, 0 = off. */
    anvil_setIntervalMining: setIntervalMining,
    evm_setIntervalMining: setIntervalMining,
    /** Handler for `anvil_getIntervalMining`: seconds, or null. */
    anvil_getIntervalMining: method(z.tuple([]), () => mining.intervalMining),
    /** Handler for `anvil_setCoinbase`: the header's miner and COINBASE of the next blocks. */
    anvil_setCoinbase: setCoinbase(null),
    hardhat_setCoinbase: setCoinbase(true),
    /** Handler for `anvil_setNextBlockBaseFeePerGas`. */
    anvil_setNextBlockBaseFeePerGas: setBaseFee(null),
    hardhat_setNextBlockBaseFeePerGas: setBaseFee(true),
    /** Handler for `evm_setBlockGasLimit`: the gas limit of the next blocks. */
    evm_setBlockGasLimit: setGasLimit,
    anvil_setBlockGasLimit: setGasLimit,
    /** Handler for `anvil_setMinGasPrice`: refused, as anvil does with EIP-1559 active. */
    anvil_setMinGasPrice: setMinGasPrice,
    hardhat_setMinGasPrice: setMinGasPrice,
  }
}
