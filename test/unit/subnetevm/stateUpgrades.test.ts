import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { applyStateUpgrades, parseStateUpgrades } from '../../../src/subnetevm/stateUpgrades.js'
import { MemoryState } from './precompiles/memoryState.js'

const A = '0x00000000000000000000000000000000000000a1'
const B = '0x00000000000000000000000000000000000000b2'
const SLOT = `0x${'00'.repeat(31)}01`
const VALUE = `0x${'00'.repeat(31)}2a`

/** MemoryState with the nonce reads a state upgrade makes. */
class UpgradeState extends MemoryState {
  async getNonce(address: Uint8Array): Promise<bigint> {
    return this.account(address)?.nonce ?? 0n
  }
}

describe('stateUpgrades (subnet-evm params/extras/state_upgrade.go)', () => {
  it("refuses what subnet-evm's verifyStateUpgrades refuses, in its words", () => {
    expect(() => parseStateUpgrades([{ accounts: {} }])).toThrow('state upgrade config block timestamp cannot be nil: StateUpgrade[0]')
    expect(() => parseStateUpgrades([{ blockTimestamp: 0, accounts: {} }])).toThrow('state upgrade config block timestamp must be greater than 0: StateUpgrade[0] has timestamp 0')
    expect(() =>
      parseStateUpgrades([
        { blockTimestamp: 10, accounts: {} },
        { blockTimestamp: 10, accounts: {} },
      ]),
    ).toThrow('state upgrade config block timestamp must be greater than previous timestamp: StateUpgrade[1] has timestamp 10, previous timestamp 10')
    expect(() => parseStateUpgrades([{ blockTimestamp: 10, accounts: { [A]: { balanceChange: 5 } } }])).toThrow(/balanceChange/)
  })

  it('adds balance, sets code with nonce 1 and storage, in the first block at or after the time', async () => {
    const upgrades = parseStateUpgrades([
      { blockTimestamp: 100, accounts: { [A]: { balanceChange: '0x10', code: '0x6001', storage: { [SLOT]: VALUE } } } },
      { blockTimestamp: 200, accounts: { [B]: { balanceChange: '1000' } } },
    ])
    const state = new UpgradeState()
    await state.setNonce(hexToBytes(B), 7n)
    await applyStateUpgrades(upgrades, 50n, 99n, state)
    expect(state.account(hexToBytes(A))).toBeUndefined()
    await applyStateUpgrades(upgrades, 99n, 150n, state)
    const a = state.account(hexToBytes(A))!
    expect([a.balance, a.nonce, bytesToHex(a.code), bytesToHex(a.storage.get(SLOT)!)]).toEqual([16n, 1n, '0x6001', VALUE])
    // Applied once: the next block (parent past the time) leaves it.
    await applyStateUpgrades(upgrades, 150n, 160n, state)
    expect(state.balanceOf(hexToBytes(A))).toBe(16n)
    await applyStateUpgrades(upgrades, 160n, 250n, state)
    expect(state.balanceOf(hexToBytes(B))).toBe(1000n)
    expect(state.account(hexToBytes(B))!.nonce).toBe(7n)
  })
})
