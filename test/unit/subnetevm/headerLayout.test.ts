// subnet-evm plugin/evm/customtypes/header_ext.go (field order), core/genesis.go toBlock and
// plugin/evm/wrapped_block.go syntacticVerify (which fields each upgrade asks for).
import { describe, expect, it } from 'vitest'
import { parseChainConfig } from '../../../src/subnetevm/chainConfig.js'
import { BLOCK_RLP_ITEMS, genesisHeaderFields, headerFieldsAt, OPTIONAL_HEADER_FIELDS, optionalHeaderItems } from '../../../src/subnetevm/headerLayout.js'

const LOCAL = 1_607_144_400n
const config = parseChainConfig({ chainId: 1, feeConfig: {} })

describe('header layout', () => {
  it('orders the optional fields as the RLP encoder does', () => {
    expect(OPTIONAL_HEADER_FIELDS).toEqual(['baseFee', 'blockGasCost', 'blobGasUsed', 'excessBlobGas', 'parentBeaconRoot', 'timeMilliseconds', 'minDelayExcess'])
    expect(BLOCK_RLP_ITEMS).toEqual(['header', 'transactions', 'uncles'])
  })

  it('adds fields per upgrade on a built block', () => {
    expect(headerFieldsAt(config, 1n, LOCAL - 1n)).toEqual(['baseFee', 'blockGasCost'])
    expect(headerFieldsAt(config, 1n, LOCAL)).toEqual([...OPTIONAL_HEADER_FIELDS])
    const etnaOnly = { ...config, upgrades: { ...config.upgrades, graniteTimestamp: LOCAL + 10n } }
    expect(headerFieldsAt(etnaOnly, 1n, LOCAL)).toEqual(['baseFee', 'blockGasCost', 'blobGasUsed', 'excessBlobGas', 'parentBeaconRoot'])
    expect(headerFieldsAt({ ...config, upgrades: {} }, 1n, LOCAL - 1n)).toEqual([])
  })

  it('gives the genesis blockGasCost only from Etna', () => {
    expect(genesisHeaderFields(config, 0n)).toEqual(['baseFee'])
    expect(genesisHeaderFields(config, LOCAL)).toEqual([...OPTIONAL_HEADER_FIELDS])
    expect(genesisHeaderFields({ ...config, upgrades: {} }, 0n)).toEqual([])
    expect(genesisHeaderFields({ ...config, upgrades: {} }, 0n, 5n)).toEqual(['baseFee'])
  })

  it('fills gaps before the last set field with the empty string', () => {
    expect(optionalHeaderItems({ baseFee: 'b', parentBeaconRoot: 'r' }, '0x80')).toEqual(['b', '0x80', '0x80', '0x80', 'r'])
    expect(optionalHeaderItems({}, '0x80')).toEqual([])
  })
})
