import { Account, Address, bytesToHex } from '@ethereumjs/util'
import type { Block } from '../chain/block.js'
import { ExecutionAbortedError, ExecutionFailedError } from '../base/errors.js'
import { GasLedger } from '../../evm/gasLedger.js'
import type { RunLimit } from './evmGuard.js'
import { type CallRunner, executionError } from './executor.js'
import type { CallRequest, StateOverride } from '../base/types.js'

const TX_GAS = 21000n

/**
 * eth_estimateGas: geth's gasestimator binary search (eth/gasestimator/gasestimator.go) on an
 * executor at `block`, its answer exactly; a probe whose outcome a successful run's gas ledger
 * proves (evm/gasLedger.ts: the same course with less gas, or out of gas in the top frame) is not
 * run. geth bounds it only by the request's deadline; `limit` (rpc-evm-timeout)
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
    const probe = async (gas: bigint, ledger?: GasLedger) => {
      await ex.sm.checkpoint()
      try {
        return await ex.run(req, gas, overrides, false, undefined, ledger)
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
    const top = await probeSafe((gas) => probe(gas, new GasLedger()), hi, true)
    if (top === undefined || top.error !== undefined) {
      if (top?.reverted) throw executionError(top)
      // geth's estimator raises the gas only for ErrOutOfGas; ethereumjs's out of gas also names a RETURNDATACOPY past the data.
      if (top !== undefined && (top.error !== 'out of gas' || top.fault?.returnDataOutOfBounds)) throw executionError(top)
      throw new ExecutionFailedError(`gas required exceeds allowance (${hi})`)
    }
    // The last successful run whose ledger proves the outcome of runs below its limit (evm/gasLedger.ts);
    // its limit within the block's, so that GASLIMIT reads the same in every run.
    const gasLimit = block.header.gasLimit
    let anchor = top.ledger !== undefined && hi <= gasLimit ? { gas: hi, ledger: top.ledger } : undefined
    /** Whether the transaction succeeds with `gas`: proven where the anchor's ledger proves it, else run. */
    const succeeds = async (gas: bigint): Promise<boolean> => {
      const proven = anchor === undefined ? undefined : outcomeBelow(anchor, gas)
      if (proven !== undefined && ex.oracle === undefined) return proven
      const r = await probeSafe(probe, gas, false, new GasLedger())
      const ok = r !== undefined && r.error === undefined
      // With the EVM oracle on (the tests), every proof is checked by the run it saved.
      if (proven !== undefined && proven !== ok)
        ex.oracle!.record([`estimate: the gas ledger proved ${proven ? 'success' : 'failure'} at ${gas}, the run ${ok ? 'succeeded' : 'failed'}`], () => `eth_estimateGas at ${gas}`)
      if (ok && r.ledger !== undefined && gas <= gasLimit) anchor = { gas, ledger: r.ledger }
      return ok
    }
    let lo = top.gasUsed - 1n
    // geth's (UsedGas + RefundedGas + CallStipend) * 64/63: RefundedGas is what the transaction kept (none under coreth's rules).
    const refundAndStipend = (top.result.gasRefund ?? 0n) + 2300n
    const optimistic = ((top.gasUsed + refundAndStipend) * 64n) / 63n
    if (optimistic < hi) {
      if (await succeeds(optimistic)) hi = optimistic
      else lo = optimistic
    }
    while (lo + 1n < hi) {
      if (((hi - lo) * 1000n) / hi < 15n) break // estimateGasErrorRatio 0.015
      let mid = (hi + lo) / 2n
      if (mid > lo * 2n) mid = lo * 2n
      if (await succeeds(mid)) hi = mid
      else lo = mid
    }
    return hi
  })
}

/** The outcome of a run with `gas` below a successful run's limit, where its ledger proves it (GasLedger.outcome). */
function outcomeBelow(anchor: { gas: bigint; ledger: GasLedger }, gas: bigint): boolean | undefined {
  // The ledger counts the top message's gas: the transaction's less its intrinsic gas, the same at every limit.
  const budget = gas - (anchor.gas - BigInt(anchor.ledger.budget))
  return budget < 0n ? undefined : anchor.ledger.outcome(Number(budget))
}

async function probeSafe<T>(probe: (gas: bigint, ledger?: GasLedger) => Promise<T>, gas: bigint, rethrow = false, ledger?: GasLedger): Promise<T | undefined> {
  try {
    return await probe(gas, ledger)
  } catch (err) {
    if (rethrow || err instanceof ExecutionAbortedError) throw err
    return undefined
  }
}
