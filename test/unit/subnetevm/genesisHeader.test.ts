// subnet-evm core/genesis.go toBlock for subnet-evm tests/genesis.json on a local network.
import { describe, expect, it } from 'vitest'
import { desiredDelayExcess } from '../../../src/engine/rules/feeState.js'
import { parseChainConfig } from '../../../src/subnetevm/chainConfig.js'
import { INITIAL_DELAY_EXCESS } from '../../../src/subnetevm/fees/minDelayExcess.js'
import { GENESIS_DIFFICULTY, GENESIS_GAS_LIMIT, genesisHeaderValues } from '../../../src/subnetevm/genesisHeader.js'
import { TESTS_FEE_CONFIG_JSON } from './testFeeConfigs.js'

const feeConfig = TESTS_FEE_CONFIG_JSON

describe('genesisHeaderValues', () => {
  it('gives a genesis at the local upgrade time every Granite field', () => {
    const config = parseChainConfig({ chainId: 99999, feeConfig })
    expect(genesisHeaderValues(config, { timestamp: 1_607_144_400n, gasLimit: 200_000_000n, difficulty: 0n, extraData: Uint8Array.of(0) }, desiredDelayExcess)).toEqual({
      gasLimit: 200_000_000n,
      difficulty: 0n,
      extraData: Uint8Array.of(0),
      baseFee: 1_000_000_000n,
      blockGasCost: 0n,
      blobGasUsed: 0n,
      excessBlobGas: 0n,
      parentBeaconRoot: new Uint8Array(32),
      timeMilliseconds: 1_607_144_400_000n,
      minDelayExcess: INITIAL_DELAY_EXCESS,
    })
  })

  it('gives a genesis at time 0 only the base fee, and geth defaults for a missing gasLimit and difficulty', () => {
    const config = parseChainConfig({ chainId: 99999, feeConfig })
    expect(genesisHeaderValues(config, { timestamp: 0n, gasLimit: 0n, baseFeePerGas: 7n }, desiredDelayExcess)).toEqual({
      gasLimit: GENESIS_GAS_LIMIT,
      difficulty: GENESIS_DIFFICULTY,
      extraData: new Uint8Array(),
      baseFee: 7n,
    })
  })

  it('seeds the delay excess from initialMinDelayMS', () => {
    const config = parseChainConfig({ chainId: 99999, feeConfig, initialMinDelayMS: 100 })
    expect(genesisHeaderValues(config, { timestamp: 1_607_144_400n, gasLimit: 200_000_000n }, desiredDelayExcess).minDelayExcess).toBe(4_828_872n)
  })
})
