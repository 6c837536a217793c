import { bytesToHex } from '@ethereumjs/util'
import { ExecutionFailedError } from '../base/errors.js'
import type { RunLimit } from './evmGuard.js'
import type { CallOutcome, CallRunner } from './executor.js'
import { gethVmError } from './gethVmError.js'
import type { CallRequest } from '../base/types.js'
import { chargedGas } from '../../evm/evmRules.js'

/** eth_createAccessList's answer. */
export interface AccessListResult {
  accessList: { address: string; storageKeys: string[] }[]
  gasUsed: bigint
  error?: string
}

/**
 * eth_createAccessList: run with access-list reporting until the list is stable (geth AccessList).
 * The gas used counts the chain's minimum charge of a given gas limit (Helicon's half, `divisor` 2;
 * evmRules.ts chargedGas), as coreth's state transition reports it; without one geth estimates a
 * limit first, half of which the call outruns.
 */
export async function createAccessList(ex: CallRunner, req: CallRequest, gas: bigint, limit: RunLimit, divisor = 0n): Promise<AccessListResult> {
  return ex.exclusive(limit, async () => {
    let list = req.accessList ?? []
    for (let i = 0; i < 8; i++) {
      await ex.sm.checkpoint()
      let outcome: CallOutcome
      try {
        outcome = await ex.run({ ...req, accessList: list }, gas, undefined, true)
      } finally {
        await ex.sm.revert()
      }
      const reported = (outcome.result.accessList ?? []).map((item) => ({
        address: item.address.toLowerCase(),
        storageKeys: item.storageKeys.map((k) => k.toLowerCase()),
      }))
      const exclude = new Set<string>([bytesToHex(req.from ?? new Uint8Array(20)), ...(req.to ? [bytesToHex(req.to)] : [])])
      const next = reported.filter((i) => !exclude.has(i.address) || i.storageKeys.length > 0)
      const same = JSON.stringify(next) === JSON.stringify(list.map((i) => ({ address: bytesToHex(i.address), storageKeys: i.storageKeys.map((k) => bytesToHex(k)) })))
      if (same || i === 7) {
        const result: AccessListResult = { accessList: next, gasUsed: req.gas === undefined ? outcome.gasUsed : chargedGas(outcome.gasUsed, req.gas, divisor) }
        if (outcome.error !== undefined) result.error = gethVmError(outcome.error, outcome.fault)
        return result
      }
      list = next.map((i) => ({ address: hexBytes(i.address), storageKeys: i.storageKeys.map(hexBytes) }))
    }
    throw new ExecutionFailedError('access list did not converge')
  })
}

function hexBytes(h: string): Uint8Array {
  return Buffer.from(h.slice(2), 'hex')
}
