// subnet-evm core/blockchain_reader.go GetCoinbaseAt, miner/worker.go and consensus/dummy verifyCoinbase.
import { describe, expect, it } from 'vitest'
import { builderCoinbase, coinbaseAllowed, coinbaseAt } from '../../../src/subnetevm/coinbaseAt.js'
import { BLACKHOLE_ADDRESS } from '../../../src/subnetevm/precompiles/modules.js'

const upgrades = { subnetEVMTimestamp: 10n }
const mine = new Uint8Array(20).fill(7)

describe('coinbaseAt', () => {
  it('burns fees unless the genesis allows fee recipients', () => {
    expect(coinbaseAt({ upgrades, allowFeeRecipients: true }, 9n)).toEqual({ coinbase: BLACKHOLE_ADDRESS, allowFeeRecipients: false })
    expect(coinbaseAt({ upgrades, allowFeeRecipients: false }, 10n)).toEqual({ coinbase: BLACKHOLE_ADDRESS, allowFeeRecipients: false })
    expect(coinbaseAt({ upgrades, allowFeeRecipients: true }, 10n)).toEqual({ coinbase: new Uint8Array(20), allowFeeRecipients: true })
  })

  it('follows the reward manager when it is active', () => {
    expect(coinbaseAt({ upgrades, allowFeeRecipients: false }, 10n, { rewardAddress: mine, allowFeeRecipients: false })).toEqual({ coinbase: mine, allowFeeRecipients: false })
  })

  it('lets the builder name its coinbase only when recipients are allowed', () => {
    const burn = coinbaseAt({ upgrades, allowFeeRecipients: false }, 10n)
    const free = coinbaseAt({ upgrades, allowFeeRecipients: true }, 10n)
    expect(builderCoinbase(burn, mine)).toEqual(BLACKHOLE_ADDRESS)
    expect(builderCoinbase(free, mine)).toEqual(mine)
    expect(coinbaseAllowed(burn, mine)).toBe(false)
    expect(coinbaseAllowed(burn, BLACKHOLE_ADDRESS)).toBe(true)
    expect(coinbaseAllowed(free, mine)).toBe(true)
  })
})
