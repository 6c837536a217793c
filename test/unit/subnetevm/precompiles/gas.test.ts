import { describe, expect, it } from 'vitest'
import { GAS } from '../../../../src/subnetevm/precompiles/gas.js'

/* The figures subnet-evm's constants come to (precompile/contract/utils.go, allowlist/event.go, each contract's event.go). */

describe('GAS', () => {
  it('prices calls and events as subnet-evm does', () => {
    expect(GAS).toEqual({
      modifyAllowList: 20_000n,
      readAllowList: 5_000n,
      allowListEvent: 2_131n,
      mintNativeCoin: 30_000n,
      nativeCoinMintedEvent: 1_756n,
      setFeeConfig: 180_000n,
      getFeeConfig: 40_000n,
      getFeeConfigLastChangedAt: 5_000n,
      feeConfigChangedEvent: 45_221n,
      allowFeeRecipients: 25_000n,
      disableRewards: 25_000n,
      setRewardAddress: 25_000n,
      areFeeRecipientsAllowed: 5_000n,
      currentRewardAddress: 5_000n,
      feeRecipientsAllowedEvent: 1_125n,
      rewardsDisabledEvent: 1_125n,
      rewardAddressChangedEvent: 6_875n,
    })
  })
})
