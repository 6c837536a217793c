import { Account, Address, bytesToHex } from '@ethereumjs/util'
import type { Block } from '../chain/block.js'
import { ExecutionAbortedError, ExecutionFailedError } from '../base/errors.js'
import type { RunLimit } from './evmGuard.js'
import { type CallRunner, executionError } from './executor.js'
import type { CallRequest, StateOverride } from '../base/types.js'

const TX_GAS = 21000n

/**
 * eth_estimateGas: geth's gasestimator binary search (eth/gasestimator/gasestimator.go) on an
 * executor at `block`. geth bounds it only by the request's deadline; `limit` (rpc-evm-timeout)
 * bounds all probes together too. `gasCap`: the rpc gas cap, 0 = none. `fundSender` (a development
 * chain): the sender need not hold the value and the gas, as anvil and hardhat estimate.
 */
export async function estimateGas(ex: CallRunner, block: Block, req: CallRequest, gasCap: bigint, limit: RunLimit, overrides?: StateOverride, fundSender = false): Promise<bigint> {
  return ex.exclusive(limit, async () => {
    // Overrides apply once, inside this exclusive section, before every probe.
    let hi = req.gas !== undefined && req.gas >= TX_GAS ? req.gas : block.header.gasLimit
    if (gasCap !== 0n && hi > gasCap) hi = gasCap
    const feeCap = req.gasPrice ?? req.maxFeePerGas ?? 0n
    const from = new Address(req.from ?? new Uint8Array(20))
    if (fundSender) {
      // On the executor's overlay only: exclusive() throws it away with the probes' writes.
      const need = (req.value ?? 0n) + hi * feeCap
      const account = (await ex.sm.getAccount(from)) ?? new Account()
      if (account.balance < need) {
        account.balance = need
        await ex.sm.putAccount(from, account)
      }
    }
    if (feeCap > 0n) {
      const account = await ex.sm.getAccount(from)
      let available = account?.balance ?? 0n
      const value = req.value ?? 0n
      if (value > available) throw new ExecutionFailedError('insufficient funds for transfer')
      available -= value
      const allowance = available / feeCap
      if (hi > allowance) hi = allowance
    }
    const probe = async (gas: bigint) => {
      await ex.sm.checkpoint()
      try {
        return await ex.run(req, gas, overrides)
      } finally {
        await ex.sm.revert()
      }
    }
    // A plain transfer to an account without code needs exactly 21000.
    if ((req.input === undefined || req.input.length === 0) && req.to) {
      const code = await ex.sm.getCode(new Address(req.to))
      if (code.length === 0 && overrides?.[bytesToHex(req.to)]?.code === undefined) {
        const r = await probeSafe(probe, TX_GAS)
        if (r !== undefined && r.error === undefined) return TX_GAS
      }
    }
    const top = await probeSafe(probe, hi, true)
    if (top === undefined || top.error !== undefined) {
      if (top?.reverted) throw executionError(top)
      if (top !== undefined && top.error !== 'out of gas') throw executionError(top)
      throw new ExecutionFailedError(`gas required exceeds allowance (${hi})`)
    }
    let lo = top.gasUsed - 1n
    // geth's (UsedGas + RefundedGas + CallStipend) * 64/63: RefundedGas is what the transaction kept (none under coreth's rules).
    const refundAndStipend = (top.result.gasRefund ?? 0n) + 2300n
    const optimistic = ((top.gasUsed + refundAndStipend) * 64n) / 63n
    if (optimistic < hi) {
      const r = await probeSafe(probe, optimistic)
      if (r !== undefined && r.error === undefined) hi = optimistic
      else lo = optimistic
    }
    while (lo + 1n < hi) {
      if (((hi - lo) * 1000n) / hi < 15n) break // estimateGasErrorRatio 0.015
      let mid = (hi + lo) / 2n
      if (mid > lo * 2n) mid = lo * 2n
      const r = await probeSafe(probe, mid)
      if (r !== undefined && r.error === undefined) hi = mid
      else lo = mid
    }
    return hi
  })
}

async function probeSafe<T>(probe: (gas: bigint) => Promise<T>, gas: bigint, rethrow = false): Promise<T | undefined> {
  try {
    return await probe(gas)
  } catch (err) {
    if (rethrow || err instanceof ExecutionAbortedError) throw err
    return undefined
  }
}
