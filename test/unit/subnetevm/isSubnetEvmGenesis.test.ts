import { describe, expect, it } from 'vitest'
import { isSubnetEvmGenesis } from '../../../src/subnetevm/isSubnetEvmGenesis.js'

describe('isSubnetEvmGenesis', () => {
  it('recognises what avalanche-cli, the Builder Console and subnet-evm tests write', () => {
    expect(isSubnetEvmGenesis({ chainId: 99999, feeConfig: { gasLimit: 200000000 } })).toBe(true)
    expect(isSubnetEvmGenesis({ chainId: 1, homesteadBlock: 0, subnetEVMTimestamp: 0 })).toBe(true)
    expect(isSubnetEvmGenesis({ chainId: 1, durangoTimestamp: 0 })).toBe(true)
    expect(isSubnetEvmGenesis({ chainId: 1, warpConfig: { blockTimestamp: 0 } })).toBe(true)
    expect(isSubnetEvmGenesis({ chainId: 1, allowFeeRecipients: true })).toBe(true)
  })

  it('leaves coreth configs and the undecidable ones to coreth', () => {
    expect(isSubnetEvmGenesis({ chainId: 43112, homesteadBlock: 0, apricotPhase1BlockTimestamp: 0, apricotPhase2BlockTimestamp: 0 })).toBe(false)
    expect(isSubnetEvmGenesis({ chainId: 43112, durangoBlockTimestamp: 0, warpConfig: {} })).toBe(false)
    expect(isSubnetEvmGenesis({ chainId: 1, homesteadBlock: 0, graniteTimestamp: 0 })).toBe(false)
    expect(isSubnetEvmGenesis({ chainId: 1, apricotPhase1BlockTimestamp: 0, feeConfig: {} })).toBe(true)
    expect(isSubnetEvmGenesis(null)).toBe(false)
    expect(isSubnetEvmGenesis([])).toBe(false)
  })
})
