import { Account, Address } from '@ethereumjs/util'
import { BLACKHOLE } from './chain.js'
import type { OverlayState } from '../state/overlayState.js'

/**
 * Header fields of the next blocks set by the development controls (anvil_setCoinbase,
 * evm_setBlockGasLimit, anvil_setNextBlockBaseFeePerGas); absent, the builder uses coreth's values.
 */
export class BlockOverrides {
  /** The header's miner field and the COINBASE opcode of the next blocks; fees still go to the blackhole. */
  coinbase: Uint8Array | undefined
  /** The gas limit of the next blocks, in place of the ACP-176 capacity. */
  gasLimit: bigint | undefined
  /** The base fee of the next block only. */
  baseFee: bigint | undefined

  reset(): void {
    this.coinbase = undefined
    this.gasLimit = undefined
    this.baseFee = undefined
  }
}

/**
 * The EVM paid a transaction's fee (base fee and tip, as coreth: minerValue) to the block's coinbase;
 * with a coinbase set by anvil_setCoinbase, move it to coreth's blackhole, where fees burn, so only
 * the header and COINBASE change. An account the fee alone created is removed again.
 */
export async function burnTip(sm: OverlayState, coinbase: Uint8Array, tip: bigint): Promise<void> {
  if (tip === 0n) return
  const from = new Address(coinbase)
  const account = (await sm.getAccount(from)) ?? new Account()
  account.balance -= tip
  if (account.isEmpty()) await sm.deleteAccount(from)
  else await sm.putAccount(from, account)
  const to = new Address(BLACKHOLE)
  const blackhole = (await sm.getAccount(to)) ?? new Account()
  blackhole.balance += tip
  await sm.putAccount(to, blackhole)
}
