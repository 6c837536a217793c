import { describe, expect, it } from 'vitest'
import { goJsonStringify } from '../../../src/subnetevm/goJson.js'
import { precompileConfigJson } from '../../../src/subnetevm/precompileConfigJson.js'
import { parsePrecompileConfig } from '../../../src/subnetevm/precompiles/config.js'

const ADMIN = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'
const B = '0x0000000000000000000000000000000000000b0b'
const A = '0x0000000000000000000000000000000000000a0a'

/** The JSON text subnet-evm's module writes for a config given as `json` (struct field order, Go map order). */
const marshal = (key: Parameters<typeof parsePrecompileConfig>[0], json: unknown) => goJsonStringify(precompileConfigJson(parsePrecompileConfig(key, json)))

describe("precompile configs as subnet-evm's modules marshal them", () => {
  it('writes the allow list, then blockTimestamp (null when unset) and disable only when set', () => {
    expect(marshal('txAllowListConfig', { blockTimestamp: 5, enabledAddresses: [B], adminAddresses: [ADMIN] })).toBe(
      `{"adminAddresses":["${ADMIN.toLowerCase()}"],"enabledAddresses":["${B}"],"blockTimestamp":5}`,
    )
    expect(marshal('contractDeployerAllowListConfig', { disable: true, blockTimestamp: 9 })).toBe('{"blockTimestamp":9,"disable":true}')
    expect(marshal('contractDeployerAllowListConfig', {})).toBe('{"blockTimestamp":null}')
  })

  it("writes initialMint's amounts in hex under sorted addresses, and the fee and reward configs", () => {
    expect(marshal('contractNativeMinterConfig', { blockTimestamp: 0, initialMint: { [B]: '1000', [A]: '0x10' } })).toBe(`{"blockTimestamp":0,"initialMint":{"${A}":"0x10","${B}":"0x3e8"}}`)
    expect(marshal('rewardManagerConfig', { blockTimestamp: 0, initialRewardConfig: { allowFeeRecipients: true } })).toBe(
      '{"blockTimestamp":0,"initialRewardConfig":{"allowFeeRecipients":true,"rewardAddress":"0x0000000000000000000000000000000000000000"}}',
    )
    expect(
      marshal('feeManagerConfig', {
        blockTimestamp: 0,
        initialFeeConfig: { gasLimit: 20_000_000, targetBlockRate: 2, minBaseFee: 1, targetGas: 100, baseFeeChangeDenominator: 48, minBlockGasCost: 0, maxBlockGasCost: 10, blockGasCostStep: 5 },
      }),
    ).toBe(
      '{"blockTimestamp":0,"initialFeeConfig":{"gasLimit":20000000,"targetBlockRate":2,"minBaseFee":1,"targetGas":100,"baseFeeChangeDenominator":48,"minBlockGasCost":0,"maxBlockGasCost":10,"blockGasCostStep":5}}',
    )
    expect(marshal('warpConfig', { blockTimestamp: 3, quorumNumerator: 0 })).toBe('{"blockTimestamp":3,"quorumNumerator":0,"requirePrimaryNetworkSigners":false}')
  })
})
