import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import type { CallRequest } from '../base/types.js'
import { minGasForSize } from '../rules/helicon.js'

const MAX_WORD = new Uint8Array(32).fill(0xff)
const MAX_NONCE = bigIntToUnpaddedBytes(2n ** 64n - 2n)

/**
 * The most bytes a signed transaction of `req` with `gas` can take: its fields as given, the nonce
 * and the signature at their longest (the estimate does not know them), the type from the fee
 * fields as a wallet would choose it. What Helicon's gas-per-byte minimum counts (txValidation.ts).
 */
export function txSizeBound(req: CallRequest, gas: bigint, chainId: bigint): number {
  const n = bigIntToUnpaddedBytes
  const to = req.to ?? new Uint8Array()
  const data = req.input ?? new Uint8Array()
  const value = n(req.value ?? 0n)
  const accessList = (req.accessList ?? []).map((i) => [i.address, i.storageKeys])
  if (req.gasPrice !== undefined && req.accessList === undefined) {
    // Legacy, EIP-155: v = chainId·2 + 36 at most.
    return RLP.encode([MAX_NONCE, n(req.gasPrice), n(gas), to, value, data, n(chainId * 2n + 36n), MAX_WORD, MAX_WORD]).length
  }
  const fees = req.gasPrice !== undefined ? [n(req.gasPrice)] : [n(req.maxPriorityFeePerGas ?? 2n ** 256n - 1n), n(req.maxFeePerGas ?? 2n ** 256n - 1n)]
  return 1 + RLP.encode([n(chainId), MAX_NONCE, ...fees, n(gas), to, value, data, accessList, n(1n), MAX_WORD, MAX_WORD]).length
}

/** An estimate raised to what Helicon's gas-per-byte minimum asks of a transaction of `req` with it (saevm txgossip minGasForSize). */
export function gasForSize(gas: bigint, req: CallRequest, chainId: bigint, blockGasLimit: bigint): bigint {
  // The minimum grows with the gas field's own bytes (at most 8): it settles within a few rounds.
  for (;;) {
    const min = minGasForSize(BigInt(txSizeBound(req, gas, chainId)), blockGasLimit)
    if (min <= gas) return gas
    gas = min
  }
}
