// Genesis configs of subnet-evm tests/genesis.json and tests/warp/genesis.json, and the cases of
// params/extras/config_test.go TestChainConfigVerify (avalanchego releases/v1.15.0-fuji).
import { describe, expect, it } from 'vitest'
import { DEFAULT_CHAIN_ID, parseChainConfig } from '../../../src/subnetevm/chainConfig.js'
import { DEFAULT_FEE_CONFIG } from '../../../src/subnetevm/feeConfig.js'
import { FUJI_UPGRADE_TIMES, LOCAL_UPGRADE_TIMES, MAINNET_UPGRADE_TIMES } from '../../../src/subnetevm/networkUpgrades.js'
import { parseJsonExact } from '../../../src/subnetevm/parseJsonExact.js'
import { TESTS_FEE_CONFIG_JSON } from './testFeeConfigs.js'

const LOCAL = 1_607_144_400n
const TESTS_FEE_CONFIG = TESTS_FEE_CONFIG_JSON
const code = (c: string) => expect.objectContaining({ code: c })

describe('parseChainConfig', () => {
  it('readies subnet-evm tests/genesis.json for a local network', () => {
    const config = parseChainConfig({ chainId: 99999, feeConfig: TESTS_FEE_CONFIG })
    expect(config.chainId).toBe(99999n)
    expect(config.feeConfig).toEqual({
      gasLimit: 200_000_000n,
      targetBlockRate: 2n,
      minBaseFee: 1_000_000_000n,
      targetGas: 400_000_000n,
      baseFeeChangeDenominator: 48n,
      minBlockGasCost: 0n,
      maxBlockGasCost: 10_000_000n,
      blockGasCostStep: 500_000n,
    })
    expect(config.upgrades).toEqual({
      subnetEVMTimestamp: 0n,
      durangoTimestamp: LOCAL,
      etnaTimestamp: LOCAL,
      fortunaTimestamp: undefined,
      graniteTimestamp: LOCAL,
      heliconTimestamp: 253_399_622_400n,
    })
    expect(config.eth).toMatchObject({ homesteadBlock: 0n, muirGlacierBlock: 0n, berlinBlock: 0n, londonBlock: 0n, shanghaiTime: LOCAL, cancunTime: LOCAL })
    expect(config.eth.daoForkBlock).toBeUndefined()
    expect(config.eth.pragueTime).toBeUndefined()
    expect(config.allowFeeRecipients).toBe(false)
    expect(config.initialMinDelayMS).toBe(0n)
  })

  it('keeps the genesis precompile configs and the keys subnet-evm ignores (tests/warp/genesis.json)', () => {
    const config = parseChainConfig({
      chainId: 99999,
      homesteadBlock: 0,
      eip150Block: 0,
      eip150Hash: '0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0',
      feeConfig: TESTS_FEE_CONFIG,
      warpConfig: { blockTimestamp: 1607144400 },
    })
    expect(config.genesisPrecompiles).toEqual({ warpConfig: { blockTimestamp: 1607144400 } })
    expect(config.unknownKeys).toEqual({ eip150Hash: '0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0' })
  })

  it('reads the config the Builder Console writes (keys sorted, London at 0, warpConfig at the creation time)', () => {
    const config = parseChainConfig({
      berlinBlock: 0,
      byzantiumBlock: 0,
      chainId: 888,
      constantinopleBlock: 0,
      eip150Block: 0,
      eip155Block: 0,
      eip158Block: 0,
      feeConfig: {
        baseFeeChangeDenominator: 36,
        blockGasCostStep: 200000,
        gasLimit: 12000000,
        maxBlockGasCost: 1000000,
        minBaseFee: 25000000000,
        minBlockGasCost: 0,
        targetBlockRate: 2,
        targetGas: 60000000,
      },
      homesteadBlock: 0,
      istanbulBlock: 0,
      londonBlock: 0,
      muirGlacierBlock: 0,
      petersburgBlock: 0,
      warpConfig: { blockTimestamp: 1760000000, quorumNumerator: 67, requirePrimaryNetworkSigners: true },
    })
    expect(config.feeConfig.targetGas).toBe(60_000_000n)
    expect(Object.keys(config.genesisPrecompiles)).toEqual(['warpConfig'])
    expect(config.unknownKeys).toEqual({})
  })

  it('takes the network upgrade times of Mainnet and Fuji, and an explicit later time', () => {
    const fuji = parseChainConfig({ chainId: 1, feeConfig: TESTS_FEE_CONFIG, graniteTimestamp: 0, etnaTimestamp: 1_750_000_000 }, { networkId: 5 })
    expect(fuji.upgrades).toMatchObject({ durangoTimestamp: FUJI_UPGRADE_TIMES.durango, etnaTimestamp: 1_750_000_000n, graniteTimestamp: FUJI_UPGRADE_TIMES.granite })
    expect(fuji.eth.cancunTime).toBe(1_750_000_000n)
    expect(parseChainConfig({ chainId: 1, feeConfig: TESTS_FEE_CONFIG }, { upgradeTimes: { ...LOCAL_UPGRADE_TIMES, helicon: LOCAL } }).upgrades.heliconTimestamp).toBe(LOCAL)
  })

  it('gives a genesis without a config subnet-evm default one: chain 43214, the default fee config, Mainnet upgrade times', () => {
    const config = parseChainConfig(undefined)
    expect(config.chainId).toBe(DEFAULT_CHAIN_ID)
    expect(config.feeConfig).toEqual(DEFAULT_FEE_CONFIG)
    expect(config.upgrades.durangoTimestamp).toBe(MAINNET_UPGRADE_TIMES.durango)
    expect(config.upgrades.graniteTimestamp).toBe(MAINNET_UPGRADE_TIMES.granite)
  })

  it('takes the default fee config when the genesis gives none or an empty one', () => {
    expect(parseChainConfig({ chainId: 1 }).feeConfig).toEqual(DEFAULT_FEE_CONFIG)
    expect(parseChainConfig({ chainId: 1, feeConfig: {} }).feeConfig).toEqual(DEFAULT_FEE_CONFIG)
  })

  it('matches keys as Go does, ignoring case', () => {
    expect(parseChainConfig({ chainID: 17771, FeeConfig: TESTS_FEE_CONFIG }).chainId).toBe(17771n)
  })

  it('reads integers past 2^53 exactly through parseJsonExact', () => {
    const raw = parseJsonExact(
      '{"chainId":99999,"feeConfig":{"gasLimit":500000000,"targetBlockRate":1,"minBaseFee":1,"targetGas":18446744073709551615,"baseFeeChangeDenominator":9223372036854775807,"minBlockGasCost":0,"maxBlockGasCost":0,"blockGasCostStep":0}}',
    )
    const config = parseChainConfig(raw)
    expect(config.feeConfig.targetGas).toBe((1n << 64n) - 1n)
    expect(config.feeConfig.baseFeeChangeDenominator).toBe((1n << 63n) - 1n)
  })
})

describe('parseChainConfig verification (TestChainConfigVerify)', () => {
  it('rejects an invalid fee config', () => {
    expect(() => parseChainConfig({ chainId: 1, feeConfig: { targetBlockRate: 2 } })).toThrow(
      expect.objectContaining({ code: 'errInvalidFeeConfig', message: 'invalid fee config: gasLimit cannot be nil' }),
    )
    expect(() => parseChainConfig({ chainId: 1, feeConfig: { ...TESTS_FEE_CONFIG, minBlockGasCost: 2, maxBlockGasCost: 1 } })).toThrow(
      expect.objectContaining({ message: 'invalid fee config: minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = 2, maxBlockGasCost = 1' }),
    )
  })

  it('rejects upgrades before the network defaults', () => {
    expect(() => parseChainConfig({ chainId: 1, feeConfig: TESTS_FEE_CONFIG, durangoTimestamp: 1 })).toThrow(
      expect.objectContaining({
        code: 'errTimestampTooEarly',
        message:
          'invalid network upgrades: durango fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 1, default timestamp 1607144400',
      }),
    )
  })

  it('bounds initialMinDelayMS by the initial 2000 ms delay, inclusive', () => {
    expect(parseChainConfig({ chainId: 1, feeConfig: TESTS_FEE_CONFIG, initialMinDelayMS: 5 }).initialMinDelayMS).toBe(5n)
    expect(() => parseChainConfig({ chainId: 1, feeConfig: TESTS_FEE_CONFIG, initialMinDelayMS: 2000 })).not.toThrow()
    expect(() => parseChainConfig({ chainId: 1, feeConfig: TESTS_FEE_CONFIG, initialMinDelayMS: 2001 })).toThrow(
      expect.objectContaining({ code: 'errInitialMinDelayTooLarge', message: 'initialMinDelayMS too large: 2001 exceeds 2000' }),
    )
  })

  it('asks the genesis gasLimit to be the fee config one (core/genesis.go Verify)', () => {
    expect(() => parseChainConfig({ chainId: 1, feeConfig: TESTS_FEE_CONFIG }, { genesisGasLimit: 200_000_000n })).not.toThrow()
    expect(() => parseChainConfig({ chainId: 1, feeConfig: TESTS_FEE_CONFIG }, { genesisGasLimit: 8_000_000n })).toThrow(
      expect.objectContaining({ message: 'gas limit in fee config (200000000) does not match gas limit in header (8000000)' }),
    )
  })

  it('checks geth fork ordering', () => {
    expect(() => parseChainConfig({ chainId: 1, feeConfig: TESTS_FEE_CONFIG, istanbulBlock: 5, muirGlacierBlock: 0 })).toThrow(
      expect.objectContaining({ code: 'errUnsupportedForkOrdering', message: 'unsupported fork ordering: istanbulBlock enabled at block 5, but muirGlacierBlock enabled at block 0' }),
    )
  })

  it('rejects JSON that does not decode', () => {
    expect(() => parseChainConfig({ chainId: 1, graniteTimestamp: -1 })).toThrow(code('errInvalidChainConfigJson'))
    expect(() => parseChainConfig({ feeConfig: TESTS_FEE_CONFIG })).toThrow(expect.objectContaining({ message: 'chain config: chainId: required' }))
    expect(() => parseChainConfig([])).toThrow(code('errInvalidChainConfigJson'))
  })
})
