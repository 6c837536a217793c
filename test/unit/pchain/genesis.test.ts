import { describe, expect, it } from 'vitest'
import { utils } from '@avalabs/avalanchejs'
import { LOCAL_GENESIS_LOCKTIME, localPGenesisUTXOs } from '../../../src/pchain/genesis.js'
import { decodePVMUTXO, encodePVMUTXO } from '../../../src/pchain/tx.js'
import { EWOQ, hex, toAjsUtxo } from '../../helpers/avalanchejs.js'

describe('P-Chain genesis', () => {
  it('gives ewoq 20,000,000 unlocked + 10,000,000 StakeableLockOut AVAX at {empty ID, i}', () => {
    const [u0, u1, u2] = localPGenesisUTXOs()
    expect(u0!.locktime).toBeUndefined()
    expect(u0!.out.amount).toBe(20_000_000_000_000_000n)
    expect(u1!.locktime).toBe(LOCAL_GENESIS_LOCKTIME)
    expect(u1!.out.amount).toBe(10_000_000_000_000_000n)
    expect([u0, u1].every((u) => hex(u!.out.addrs[0]!) === hex(EWOQ))).toBe(true)
    expect([u0, u1, u2].map((u) => u!.utxoID.outputIndex)).toEqual([0, 1, 2])
    expect(hex(u0!.utxoID.txID)).toBe('00'.repeat(32))
    // StakeableLockOut bytes as AvalancheJS reads them.
    const bytes = encodePVMUTXO(u1!)
    const back = toAjsUtxo('PVM', bytes)
    expect(hex(utils.getManagerForVM('PVM').getDefaultCodec().PackPrefix(back.output))).toBe(hex(bytes.slice(2 + 36 + 32)))
    expect(hex(encodePVMUTXO(decodePVMUTXO(bytes)))).toBe(hex(bytes))
    // With avalanchego's moved-forward local start time, the lock is already past: plain outputs.
    expect(localPGenesisUTXOs(1_721_016_000n).every((u) => u.locktime === undefined)).toBe(true)
  })
})
