import { describe, expect, it } from 'vitest'
import { decodeReceiptLogs, decodeReceipts, encodeReceipts, type Receipt } from '../../../../src/engine/chain/receipt.js'

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (seed * 31 + i * 7) & 255)

function receipt(seed: number, logs: Receipt['logs']): Receipt {
  return {
    txType: seed % 3,
    status: 1,
    cumulativeGasUsed: 21_000n * BigInt(seed + 1),
    gasUsed: 21_000n,
    effectiveGasPrice: 25_000_000_000n,
    contractAddress: seed === 1 ? bytes(20, 9) : undefined,
    logs,
  }
}

describe('decodeReceiptLogs', () => {
  it("reads the logs of a block's stored receipts, each with its transaction's index, as decodeReceipts does", () => {
    const receipts = [
      receipt(0, [{ address: bytes(20, 1), topics: [bytes(32, 2), bytes(32, 3)], data: bytes(32, 4) }]),
      receipt(1, []),
      receipt(2, [
        { address: bytes(20, 5), topics: [], data: new Uint8Array() },
        { address: bytes(20, 6), topics: [bytes(32, 7), bytes(32, 8), bytes(32, 9), bytes(32, 10)], data: bytes(1, 1) },
        { address: bytes(20, 6), topics: [bytes(32, 11)], data: bytes(300, 12) },
      ]),
    ]
    const stored = encodeReceipts(receipts)
    const { logs, txIndexes } = decodeReceiptLogs(Buffer.from(stored))
    expect(logs).toEqual(decodeReceipts(stored).flatMap((r) => r.logs))
    expect(txIndexes).toEqual([0, 2, 2, 2])
    expect(decodeReceiptLogs(encodeReceipts([]))).toEqual({ logs: [], txIndexes: [] })
  })
})
