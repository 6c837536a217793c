import { hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { parseGenesisPrecompiles, parsePrecompileConfig, parsePrecompileUpgrades } from '../../../../src/subnetevm/precompiles/config.js'

/* The JSON of subnet-evm's precompile configs: genesis keys (params/extras/precompiles.go) and upgrade.json entries (precompile_upgrade.go). */

const A = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'
const B = '0x0000000000000000000000000000000000000022'
const bytes = (h: string) => hexToBytes(h.toLowerCase() as `0x${string}`)

describe('parseGenesisPrecompiles', () => {
  it('reads each registered key of the chain config, in address order, and ignores the rest', () => {
    const configs = parseGenesisPrecompiles({
      chainId: 99999,
      warpConfig: { blockTimestamp: 0, quorumNumerator: 67 },
      rewardManagerConfig: { blockTimestamp: 0, adminAddresses: [A], initialRewardConfig: { allowFeeRecipients: true } },
      feeManagerConfig: { blockTimestamp: 5, enabledAddresses: [B], initialFeeConfig: { gasLimit: 20_000_000, targetBlockRate: 2, maxBlockGasCost: 10n ** 30n } },
      txAllowListConfig: { blockTimestamp: 0, adminAddresses: [A], managerAddresses: [B] },
      contractNativeMinterConfig: { blockTimestamp: 0, initialMint: { [A]: '0x10', [B]: '1000' } },
      contractDeployerAllowListConfig: { blockTimestamp: 0, adminAddresses: [A], disable: false },
      someOtherConfig: { blockTimestamp: 0 },
    })
    expect(configs.map((c) => c.key)).toEqual(['contractDeployerAllowListConfig', 'contractNativeMinterConfig', 'txAllowListConfig', 'feeManagerConfig', 'rewardManagerConfig', 'warpConfig'])
    expect(configs[0]).toEqual({ key: 'contractDeployerAllowListConfig', blockTimestamp: 0n, disable: false, adminAddresses: [bytes(A)], managerAddresses: [], enabledAddresses: [] })
    expect(configs[1]).toMatchObject({
      initialMint: [
        { address: bytes(A), amount: 16n },
        { address: bytes(B), amount: 1000n },
      ],
    })
    expect(configs[2]).toMatchObject({ adminAddresses: [bytes(A)], managerAddresses: [bytes(B)] })
    expect(configs[3]).toMatchObject({ blockTimestamp: 5n, enabledAddresses: [bytes(B)], initialFeeConfig: { gasLimit: 20_000_000n, targetBlockRate: 2n, maxBlockGasCost: 10n ** 30n } })
    expect(configs[3]!.key === 'feeManagerConfig' && configs[3]!.initialFeeConfig).not.toHaveProperty('minBaseFee')
    expect(configs[4]).toMatchObject({ initialRewardConfig: { allowFeeRecipients: true, rewardAddress: new Uint8Array(20) } })
    expect(configs[5]).toEqual({ key: 'warpConfig', blockTimestamp: 0n, disable: false, quorumNumerator: 67n, requirePrimaryNetworkSigners: false })
  })

  it('takes a null config as one that never activates, as Go leaves the fields zero', () => {
    expect(parseGenesisPrecompiles({ txAllowListConfig: null })).toEqual([{ key: 'txAllowListConfig', disable: false, adminAddresses: [], managerAddresses: [], enabledAddresses: [] }])
  })

  it('refuses malformed addresses with hexutil’s texts', () => {
    expect(() => parsePrecompileConfig('txAllowListConfig', { adminAddresses: ['8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'] })).toThrow(
      'txAllowListConfig.adminAddresses.0: hex string without 0x prefix',
    )
    expect(() => parsePrecompileConfig('txAllowListConfig', { enabledAddresses: ['0x1234'] })).toThrow('hex string has length 4, want 40 for common.Address')
    expect(() => parsePrecompileConfig('txAllowListConfig', { enabledAddresses: ['0xzz'] })).toThrow('invalid hex string')
    expect(() => parsePrecompileConfig('txAllowListConfig', { blockTimestamp: -1 })).toThrow('expected a uint64')
  })

  it('reads initialMint amounts as HexOrDecimal256: hex, decimal, numbers, null kept for Verify, the last of equal addresses', () => {
    const config = parsePrecompileConfig('contractNativeMinterConfig', {
      initialMint: { [A]: 5, [A.toLowerCase()]: '-1', [B]: null, '0x0000000000000000000000000000000000000001': '' },
    })
    expect(config).toMatchObject({
      initialMint: [{ address: bytes(A), amount: -1n }, { address: bytes(B) }, { address: bytes('0x0000000000000000000000000000000000000001'), amount: 0n }],
    })
    expect(config.key === 'contractNativeMinterConfig' && config.initialMint[1]).not.toHaveProperty('amount')
    expect(() => parsePrecompileConfig('contractNativeMinterConfig', { initialMint: { [A]: '1e18' } })).toThrow('invalid hex or decimal integer "1e18"')
    expect(() => parsePrecompileConfig('contractNativeMinterConfig', { initialMint: { [A]: `0x1${'0'.repeat(64)}` } })).toThrow('invalid hex or decimal integer')
  })
})

describe('parsePrecompileUpgrades', () => {
  it('reads each entry under its one key, in order', () => {
    const upgrades = parsePrecompileUpgrades([
      { feeManagerConfig: { blockTimestamp: 10, disable: true } },
      { warpConfig: { blockTimestamp: 11 } },
      { rewardManagerConfig: { blockTimestamp: 12, initialRewardConfig: { rewardAddress: A } } },
    ])
    expect(upgrades).toMatchObject([
      { key: 'feeManagerConfig', blockTimestamp: 10n, disable: true },
      { key: 'warpConfig', blockTimestamp: 11n, disable: false, quorumNumerator: 0n },
      { key: 'rewardManagerConfig', blockTimestamp: 12n, initialRewardConfig: { allowFeeRecipients: false, rewardAddress: bytes(A) } },
    ])
    expect(parsePrecompileUpgrades(undefined)).toEqual([])
  })

  it('refuses entries as PrecompileUpgrade.UnmarshalJSON does', () => {
    expect(() => parsePrecompileUpgrades([{}])).toThrow('PrecompileUpgrade cannot be empty')
    expect(() => parsePrecompileUpgrades([null])).toThrow('PrecompileUpgrade cannot be empty')
    expect(() => parsePrecompileUpgrades([{ txAllowListConfig: {}, feeManagerConfig: {} }])).toThrow('PrecompileUpgrade must have exactly one key, got 2')
    expect(() => parsePrecompileUpgrades([{ gasPriceManagerConfig: {} }])).toThrow('unknown precompile config: gasPriceManagerConfig')
    expect(() => parsePrecompileUpgrades({})).toThrow('expected an array')
  })
})
