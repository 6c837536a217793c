// A local network's subnet-evm chain (genesis of subnet-evm tests/genesis.json): every upgrade but
// Helicon active from the genesis time, so blocks are Granite blocks.
import { describe, expect, it } from 'vitest'
import { parseChainConfig } from '../../../../src/subnetevm/chainConfig.js'
import { WINDOW_SIZE, parseWindow } from '../../../../src/subnetevm/fees/feeWindow.js'
import { INITIAL_DELAY_EXCESS } from '../../../../src/subnetevm/fees/minDelayExcess.js'
import { nextBlockFees } from '../../../../src/subnetevm/fees/nextBlockFees.js'
import type { ParentHeader } from '../../../../src/subnetevm/fees/parentHeader.js'
import { TESTS_FEE_CONFIG_JSON } from '../testFeeConfigs.js'

const config = parseChainConfig({
  chainId: 99999,
  feeConfig: TESTS_FEE_CONFIG_JSON,
})
const GENESIS_TIME = 1_607_144_400n
const genesis: ParentHeader = {
  number: 0n,
  timestamp: GENESIS_TIME,
  timeMilliseconds: GENESIS_TIME * 1000n,
  gasLimit: 200_000_000n,
  gasUsed: 0n,
  baseFee: 1_000_000_000n,
  extraData: Uint8Array.of(0),
  blockGasCost: 0n,
  minDelayExcess: INITIAL_DELAY_EXCESS,
}

describe('nextBlockFees', () => {
  it('builds the first block from the empty window and the minimum base fee', () => {
    const t = 1_760_000_000_123n
    const fees = nextBlockFees(config.upgrades, config.feeConfig, genesis, t)
    expect(fees).toMatchObject({
      timestamp: t / 1000n,
      timeMilliseconds: t,
      gasLimit: 200_000_000n,
      baseFee: 1_000_000_000n,
      blockGasCost: 0n,
      minDelayExcess: INITIAL_DELAY_EXCESS,
      blobGasUsed: 0n,
      excessBlobGas: 0n,
    })
    expect(fees.parentBeaconRoot).toEqual(new Uint8Array(32))
    expect(fees.extraData).toEqual(new Uint8Array(WINDOW_SIZE + 6))
  })

  it('rolls the parent gas into the window and raises the base fee over the target', () => {
    // The parent's window holds 400M in its last second; the parent used 200M more; its child comes 2 s later.
    const window = new Uint8Array(WINDOW_SIZE + 6)
    new DataView(window.buffer).setBigUint64(9 * 8, 400_000_000n)
    const parent: ParentHeader = { ...genesis, number: 5n, timestamp: 1_760_000_000n, timeMilliseconds: 1_760_000_000_500n, gasUsed: 200_000_000n, extraData: window }
    const fees = nextBlockFees(config.upgrades, config.feeConfig, parent, 1_760_000_002_600n, { desiredDelayExcess: 0n })
    expect(fees.extraWindow).toEqual([0n, 0n, 0n, 0n, 0n, 0n, 0n, 600_000_000n, 0n, 0n])
    expect(parseWindow(fees.extraData)).toEqual(fees.extraWindow)
    // 600M over a 400M target: +1 gwei · 200M/400M / 48.
    expect(fees.baseFee).toBe(1_000_000_000n + 10_416_666n)
    expect(fees.minDelayExcess).toBe(INITIAL_DELAY_EXCESS - 200n)
  })
})
