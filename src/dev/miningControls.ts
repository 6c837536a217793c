import type { Engine } from '../engine/engine.js'
import { InvalidParamsError } from '../engine/base/errors.js'
import type { DevControls } from './devControls.js'

/** Largest value a u64 parameter of anvil takes (anvil refuses a timestamp at or above it). */
const U64_MAX = (1n << 64n) - 1n

/**
 * Mining on demand and the mining mode (anvil: crates/anvil/src/eth/api.rs evm_mine, anvil_mine,
 * anvil_set_auto_mine, anvil_set_interval_mining), and the header fields of the next blocks
 * (anvil_setCoinbase, anvil_setNextBlockBaseFeePerGas, evm_setBlockGasLimit). A snapshot keeps those
 * fields; the mining mode outlives a revert (as anvil's); anvil_reset puts back the start-up ones.
 */
export class MiningControls {
  constructor(
    private readonly engine: Engine,
    controls: DevControls,
  ) {
    const { builder, overrides } = engine.dev
    // The mining mode outlives a revert, as anvil's does; anvil_reset (saved undefined) puts back the start-up one.
    controls.addPart('mining', {
      save: () => true,
      restore: (saved) => {
        if (saved === undefined) builder.resetMining()
      },
    })
    controls.addPart('nextBlock', {
      save: () => ({
        coinbase: overrides.coinbase === undefined ? null : Array.from(overrides.coinbase),
        gasLimit: overrides.gasLimit?.toString() ?? null,
        baseFee: overrides.baseFee?.toString() ?? null,
      }),
      restore: (saved) => {
        overrides.reset()
        if (saved === undefined) return
        const s = saved as { coinbase: number[] | null; gasLimit: string | null; baseFee: string | null }
        if (s.coinbase !== null) overrides.coinbase = Uint8Array.from(s.coinbase)
        if (s.gasLimit !== null) overrides.gasLimit = BigInt(s.gasLimit)
        if (s.baseFee !== null) overrides.baseFee = BigInt(s.baseFee)
      },
    })
  }

  /**
   * evm_mine and anvil_mine: `blocks` blocks now, whatever the mining mode, each with the executable
   * transactions that fit. `timestamp`: the first block's (evm_mine); `interval`: seconds the clock
   * moves on before each block (anvil_mine), undone for a block that fails, as anvil does.
   */
  mine(blocks: bigint, opts: { timestamp?: bigint; interval?: bigint } = {}): Promise<void> {
    const { dev } = this.engine
    if (opts.timestamp !== undefined) this.setNextBlockTimestamp(opts.timestamp)
    return dev.exclusive(async () => {
      for (let i = 0n; i < blocks; i++) {
        if (opts.interval !== undefined) dev.clock.increase(opts.interval)
        try {
          await dev.mineOne()
        } catch (err) {
          if (opts.interval !== undefined) dev.clock.increase(-opts.interval)
          throw err
        }
      }
    })
  }

  /** evm_setNextBlockTimestamp: anvil's checks (a timestamp below the head's is refused). */
  setNextBlockTimestamp(seconds: bigint): void {
    checkTimestamp(seconds)
    const head = this.engine.head.header.timestamp
    if (seconds < head) throw new InvalidParamsError(`Timestamp error: ${seconds} is lower than previous block's timestamp`)
    this.engine.dev.clock.setNextTimestamp(seconds)
  }

  get automine(): boolean {
    return this.engine.dev.builder.mining.automine
  }

  /** evm_setAutomine: on builds a block as transactions arrive (interval mining stops); off leaves them in the pool. */
  setAutomine(on: boolean): void {
    const { builder } = this.engine.dev
    if (on === builder.mining.automine) return
    builder.setMining(on ? { automine: true, intervalMs: 0 } : { automine: false, intervalMs: 0 })
  }

  /** evm_setIntervalMining: a block (empty ones too) every `seconds`; 0 = blocks only when asked. Automine stops either way. */
  setIntervalMining(seconds: bigint): void {
    this.engine.dev.builder.setMining({ automine: false, intervalMs: Number(seconds) * 1000 })
  }

  /** anvil_setCoinbase: the header's miner field and COINBASE of the next blocks (fees still burn). */
  setCoinbase(address: Uint8Array): void {
    this.engine.dev.overrides.coinbase = address
  }

  /** anvil_setNextBlockBaseFeePerGas: the next block's base fee (u64, saturating, as anvil). */
  setNextBlockBaseFee(wei: bigint): void {
    this.engine.dev.overrides.baseFee = wei > U64_MAX ? U64_MAX : wei
  }

  /** evm_setBlockGasLimit: the gas limit of the next blocks (u64, saturating, as anvil). */
  setBlockGasLimit(gas: bigint): void {
    this.engine.dev.overrides.gasLimit = gas > U64_MAX ? U64_MAX : gas
  }

  /** anvil_getIntervalMining: the interval in seconds, or null. */
  get intervalMining(): number | null {
    const { intervalMs } = this.engine.dev.builder.mining
    return intervalMs > 0 ? intervalMs / 1000 : null
  }
}

/** anvil's bound on a timestamp parameter (anvil: crates/anvil/src/eth/api.rs, EvmSetNextBlockTimeStamp). */
export function checkTimestamp(seconds: bigint): void {
  if (seconds >= U64_MAX) throw new InvalidParamsError('The timestamp is too big')
}
