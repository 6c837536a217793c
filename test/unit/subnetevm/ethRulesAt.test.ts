import { describe, expect, it } from 'vitest'
import { parseChainConfig } from '../../../src/subnetevm/chainConfig.js'
import { ethRulesAt } from '../../../src/subnetevm/ethRulesAt.js'

describe('ethRulesAt', () => {
  const config = parseChainConfig({ chainId: 7, feeConfig: {} })
  it('turns every geth fork through London on at block 0, Shanghai at Durango and Cancun at Etna', () => {
    expect(ethRulesAt(config, 0n, 1_607_144_399n)).toMatchObject({ chainId: 7n, isHomestead: true, isPetersburg: true, isLondon: true, isMerge: true, isShanghai: false, isCancun: false })
    expect(ethRulesAt(config, 3n, 1_607_144_400n)).toMatchObject({ isShanghai: true, isCancun: true, isPrague: false, isVerkle: false })
  })

  it('takes Petersburg from Constantinople when the config leaves it nil', () => {
    const eth = { ...config.eth, petersburgBlock: undefined, constantinopleBlock: 5n }
    expect(ethRulesAt({ ...config, eth }, 4n, 0n).isPetersburg).toBe(false)
    expect(ethRulesAt({ ...config, eth }, 5n, 0n).isPetersburg).toBe(true)
  })
})
