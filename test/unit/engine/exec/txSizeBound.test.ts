// The bound on a signed transaction's size that eth_estimateGas raises its answer with under Helicon
// (src/engine/exec/txSizeBound.ts): never under the size of the transaction a wallet signs with it.
import { type TransactionRequest, Wallet } from 'ethers'
import { describe, expect, it } from 'vitest'
import type { CallRequest } from '../../../../src/engine/base/types.js'
import { txSizeBound } from '../../../../src/engine/exec/txSizeBound.js'

const wallet = Wallet.createRandom()
const to = '0x000000000000000000000000000000000000dEaD'
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))
const data = `0x${'00'.repeat(1000)}${'ab'.repeat(300)}`

describe('txSizeBound', () => {
  const cases: [string, TransactionRequest, CallRequest][] = [
    ['EIP-1559', { type: 2, maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: 1n }, { maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: 1n }],
    ['EIP-1559 without fee fields (their longest)', { type: 2, maxFeePerGas: 2n ** 255n, maxPriorityFeePerGas: 2n ** 255n }, {}],
    ['legacy (EIP-155)', { type: 0, gasPrice: 25_000_000_000n }, { gasPrice: 25_000_000_000n }],
    [
      'EIP-2930',
      { type: 1, gasPrice: 25_000_000_000n, accessList: [{ address: to, storageKeys: [`0x${'11'.repeat(32)}`] }] },
      { gasPrice: 25_000_000_000n, accessList: [{ address: bytes(to), storageKeys: [new Uint8Array(32).fill(0x11)] }] },
    ],
  ]
  for (const [kind, fields, req] of cases) {
    it(`covers a signed ${kind} transaction, within a few bytes`, async () => {
      for (const nonce of [0, 1, 300, 2 ** 40]) {
        const gas = 1_234_567n
        const raw = await wallet.signTransaction({ chainId: 43112, nonce, to, value: 5n, data, gasLimit: gas, ...fields })
        const size = (raw.length - 2) / 2
        const bound = txSizeBound({ to: bytes(to), value: 5n, input: bytes(data), ...req }, gas, 43112n)
        expect(bound).toBeGreaterThanOrEqual(size)
        expect(bound - size).toBeLessThanOrEqual(12)
      }
    })
  }
})
