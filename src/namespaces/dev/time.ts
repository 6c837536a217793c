import { z } from 'zod'
import type { MiningControls } from '../../dev/miningControls.js'
import type { TimeControls } from '../../dev/timeControls.js'
import { type MethodTable, method } from '../../rpc/types.js'
import { LenientU64 } from './mining.js'
import { LenientU256 } from './params.js'

/** Time travel (anvil's semantics and answers, crates/anvil/src/eth/api.rs; anvil's and hardhat's names). */
export function timeMethods(time: TimeControls, mining: MiningControls): MethodTable {
  const increaseTime = method(z.tuple([LenientU256]), ([seconds]) => Number(time.increaseTime(seconds)))
  const setNextBlockTimestamp = method(z.tuple([LenientU256]), ([seconds]) => {
    mining.setNextBlockTimestamp(seconds)
    return null
  })
  const setTime = method(z.tuple([LenientU256]), ([t]) => Number(time.setTime(t)))
  return {
    /** Handler for `evm_increaseTime`: the total offset in seconds, a JSON number. */
    evm_increaseTime: increaseTime,
    anvil_increaseTime: increaseTime,
    /** Handler for `evm_setNextBlockTimestamp`: the next block's exact timestamp. */
    evm_setNextBlockTimestamp: setNextBlockTimestamp,
    anvil_setNextBlockTimestamp: setNextBlockTimestamp,
    /** Handler for `evm_setTime`: seconds (or ms above 1e12); the seconds moved forward. */
    evm_setTime: setTime,
    anvil_setTime: setTime,
    /** Handler for `anvil_setBlockTimestampInterval`. */
    anvil_setBlockTimestampInterval: method(z.tuple([LenientU64]), ([seconds]) => {
      time.setBlockTimestampInterval(seconds)
      return null
    }),
    /** Handler for `anvil_removeBlockTimestampInterval`: whether one was set. */
    anvil_removeBlockTimestampInterval: method(z.tuple([]), () => time.removeBlockTimestampInterval()),
  }
}
