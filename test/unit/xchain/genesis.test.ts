import { describe, expect, it } from 'vitest'
import { encodeUTXO } from '../../../src/avalanche/avax.js'
import { cb58Encode } from '../../../src/avalanche/cb58.js'
import { decodeAVMUTXO } from '../../../src/xchain/tx.js'
import { genesisAssetID, LOCAL_X_ALLOCATIONS, localXGenesisUTXOs } from '../../../src/xchain/genesis.js'
import { AVAX, EWOQ, hex } from '../../helpers/avalanchejs.js'

describe('X-Chain genesis', () => {
  it('derives the AVAX asset ID from the genesis CreateAssetTx, as avalanchego does', () => {
    expect(cb58Encode(genesisAssetID(12345, LOCAL_X_ALLOCATIONS))).toBe(AVAX)
  })
  it('gives ewoq 300,000,000 AVAX at {assetID, 1}', () => {
    const us = localXGenesisUTXOs()
    expect(us).toHaveLength(2)
    const ewoq = us.find((u) => Buffer.compare(u.out.addrs[0]!, EWOQ) === 0)!
    expect(ewoq.out.amount).toBe(300_000_000_000_000_000n)
    expect(ewoq.utxoID.outputIndex).toBe(1)
    expect(cb58Encode(ewoq.utxoID.txID)).toBe(AVAX)
    expect(hex(encodeUTXO(decodeAVMUTXO(encodeUTXO(ewoq))))).toBe(hex(encodeUTXO(ewoq)))
  })
})
