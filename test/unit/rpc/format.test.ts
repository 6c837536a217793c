import { describe, expect, it } from 'vitest'
import type { LogBlock } from '../../../src/engine/chain/block.js'
import type { FoundLog } from '../../../src/engine/logs/logIndex.js'
import { formatLog, logsJson } from '../../../src/rpc/format.js'

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (seed * 31 + i * 7) & 255)
/** The fields formatLog reads of a block: its hash, number and timestamp. */
function block(number: bigint): LogBlock {
  return { header: { number, timestamp: 1_700_000_000n + number }, hash: bytes(32, Number(number)) }
}
/** A transaction's hash in that block. */
const txHash = (b: LogBlock, i: number) => bytes(32, Number(b.header.number) * 100 + i)
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`

describe('logsJson', () => {
  it('writes the text JSON.stringify makes of formatLog for every log', () => {
    const a = block(0x10n)
    const b = block(0x2ffn)
    const found: FoundLog[] = [
      { block: a, txIndex: 0, logIndex: 0, txHash: txHash(a, 0), log: { address: bytes(20, 1), topics: [bytes(32, 2), bytes(32, 3), bytes(32, 4)], data: bytes(32, 5) } },
      { block: a, txIndex: 0, logIndex: 1, txHash: txHash(a, 0), log: { address: bytes(20, 1), topics: [], data: new Uint8Array() } },
      { block: a, txIndex: 2, logIndex: 17, txHash: txHash(a, 2), log: { address: Buffer.from(bytes(20, 6)), topics: [bytes(32, 2)], data: bytes(300, 7) } },
      { block: b, txIndex: 1, logIndex: 0, txHash: txHash(b, 1), log: { address: bytes(20, 8), topics: [bytes(32, 9), bytes(32, 10), bytes(32, 11), bytes(32, 12)], data: bytes(1, 13) } },
    ]
    expect(logsJson(found).text).toBe(JSON.stringify(found.map((f) => formatLog(f, hex(f.txHash)))))
    expect(logsJson([]).text).toBe('[]')
  })

  it("writes a block's log once and gives the same text when the block object is asked for again, whatever else is selected", () => {
    const a = block(0x20n)
    const log = (logIndex: number, txIndex: number): FoundLog => ({
      block: a,
      txIndex,
      logIndex,
      txHash: txHash(a, txIndex),
      log: { address: bytes(20, logIndex), topics: [bytes(32, logIndex + 1)], data: bytes(64, logIndex + 2) },
    })
    const all = [log(0, 0), log(1, 0), log(2, 3)]
    const expected = (found: FoundLog[]) => JSON.stringify(found.map((f) => formatLog(f, hex(f.txHash))))
    expect(logsJson([all[2]!]).text).toBe(expected([all[2]!]))
    expect(logsJson(all).text).toBe(expected(all))
    expect(logsJson([all[1]!, all[2]!]).text).toBe(expected([all[1]!, all[2]!]))
    // Another object for another block with the same log places is another block's text.
    const b = block(0x21n)
    const other = { ...all[0]!, block: b, txHash: txHash(b, 0) }
    expect(logsJson([other]).text).toBe(expected([other]))
  })
})
