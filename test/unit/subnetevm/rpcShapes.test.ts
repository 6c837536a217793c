// The answers of subnet-evm internal/ethapi/api_extra.go for a local chain of subnet-evm
// tests/warp/genesis.json, written as Go writes them (libevm params/json.libevm.go: map-sorted keys).
import { describe, expect, it } from 'vitest'
import { parseChainConfig } from '../../../src/subnetevm/chainConfig.js'
import { feeConfigAt } from '../../../src/subnetevm/feeConfigAt.js'
import { goJsonStringify } from '../../../src/subnetevm/goJson.js'
import { activePrecompilesAnswer, activeRulesAnswer, chainConfigAnswer, feeConfigAnswer } from '../../../src/subnetevm/rpcShapes.js'

const FEE =
  '{"gasLimit":20000000,"targetBlockRate":2,"minBaseFee":1000000000,"targetGas":100000000,"baseFeeChangeDenominator":48,"minBlockGasCost":0,"maxBlockGasCost":10000000,"blockGasCostStep":500000}'
const config = parseChainConfig({
  chainId: 99999,
  homesteadBlock: 0,
  eip150Block: 0,
  eip155Block: 0,
  eip158Block: 0,
  byzantiumBlock: 0,
  constantinopleBlock: 0,
  petersburgBlock: 0,
  istanbulBlock: 0,
  muirGlacierBlock: 0,
  feeConfig: JSON.parse(FEE),
  warpConfig: { blockTimestamp: 1607144400 },
})
const WARP_JSON = { blockTimestamp: 1607144400, quorumNumerator: 0, requirePrimaryNetworkSigners: false }

describe('eth_getChainConfig', () => {
  it('is one flat object, keys sorted, with upgrades last', () => {
    expect(goJsonStringify(chainConfigAnswer(config, { genesisPrecompiles: { warpConfig: WARP_JSON } }))).toBe(
      '{"berlinBlock":0,"byzantiumBlock":0,"cancunTime":1607144400,"chainId":99999,"constantinopleBlock":0,"durangoTimestamp":1607144400,' +
        '"eip150Block":0,"eip155Block":0,"eip158Block":0,"etnaTimestamp":1607144400,' +
        `"feeConfig":${FEE},"graniteTimestamp":1607144400,"heliconTimestamp":253399622400,"homesteadBlock":0,"istanbulBlock":0,` +
        '"londonBlock":0,"muirGlacierBlock":0,"petersburgBlock":0,"shanghaiTime":1607144400,"subnetEVMTimestamp":0,' +
        '"warpConfig":{"blockTimestamp":1607144400,"quorumNumerator":0,"requirePrimaryNetworkSigners":false},"upgrades":{}}',
    )
  })

  it('shows the upgrade bytes and the optional extras when set', () => {
    const withAll = { ...config, allowFeeRecipients: true, initialMinDelayMS: 500n }
    const answer = chainConfigAnswer(withAll, {
      upgradeConfig: { networkUpgradeOverrides: { graniteTimestamp: 1_700_000_000n }, precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: 1_700_000_001, disable: true } }] },
    })
    const text = goJsonStringify(answer)
    expect(text).toContain('"allowFeeRecipients":true,"berlinBlock":0')
    expect(text).toContain('"initialMinDelayMS":500,"istanbulBlock":0')
    expect(text.endsWith('"upgrades":{"networkUpgradeOverrides":{"graniteTimestamp":1700000000},"precompileUpgrades":[{"txAllowListConfig":{"blockTimestamp":1700000001,"disable":true}}]}}')).toBe(
      true,
    )
  })
})

describe('eth_getActiveRulesAt', () => {
  it('gives geth rules of block 0, the Avalanche rules and the active precompiles', () => {
    expect(goJsonStringify(activeRulesAnswer(config, 1_607_144_400n, [{ key: 'warpConfig', timestamp: 1_607_144_400n }]))).toBe(
      '{"ethRules":{"ChainID":99999,"IsHomestead":true,"IsEIP150":true,"IsEIP155":true,"IsEIP158":true,"IsByzantium":true,"IsConstantinople":true,' +
        '"IsPetersburg":true,"IsIstanbul":true,"IsBerlin":true,"IsLondon":true,"IsMerge":true,"IsShanghai":true,"IsCancun":true,"IsPrague":false,"IsVerkle":false},' +
        '"avalancheRules":{"IsSubnetEVM":true,"IsDurango":true,"IsEtna":true,"IsFortuna":false,"IsGranite":true,"IsHelicon":false},' +
        '"precompiles":{"warpConfig":{"timestamp":1607144400}}}',
    )
  })

  it('is pre-Durango before the local upgrade time', () => {
    const answer = activeRulesAnswer(config, 0n, [])
    expect(answer.avalancheRules).toEqual({ IsSubnetEVM: true, IsDurango: false, IsEtna: false, IsFortuna: false, IsGranite: false, IsHelicon: false })
    expect(answer.precompiles).toEqual({})
    expect((answer.ethRules as Record<string, unknown>).IsShanghai).toBe(false)
  })
})

describe('eth_feeConfig', () => {
  it('gives the genesis fee config changed at 0 without a fee manager', () => {
    expect(goJsonStringify(feeConfigAnswer(feeConfigAt(config, 1_607_144_400n)))).toBe(`{"feeConfig":${FEE},"lastChangedAt":0}`)
  })

  it('gives the stored fee config and its block with a fee manager, and leaves lastChangedAt out before SubnetEVM', () => {
    const stored = { ...config.feeConfig, gasLimit: 30_000_000n }
    expect(goJsonStringify(feeConfigAnswer(feeConfigAt(config, 1n, { feeConfig: stored, lastChangedAt: 7n })))).toBe(`{"feeConfig":${FEE.replace('20000000', '30000000')},"lastChangedAt":7}`)
    const late = { ...config, upgrades: { ...config.upgrades, subnetEVMTimestamp: 10n } }
    expect(goJsonStringify(feeConfigAnswer(feeConfigAt(late, 1n)))).toBe(
      '{"feeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}}',
    )
  })
})

describe('eth_getActivePrecompilesAt', () => {
  it('gives the active configs by key, sorted', () => {
    expect(goJsonStringify(activePrecompilesAnswer({ warpConfig: WARP_JSON, feeManagerConfig: { blockTimestamp: 0 } }))).toBe(
      '{"feeManagerConfig":{"blockTimestamp":0},"warpConfig":{"blockTimestamp":1607144400,"quorumNumerator":0,"requirePrimaryNetworkSigners":false}}',
    )
  })
})
