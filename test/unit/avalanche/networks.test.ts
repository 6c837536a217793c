import { describe, expect, it } from 'vitest'
import { cb58Encode } from '../../../src/avalanche/cb58.js'
import { NETWORKS, hrpForNetwork, lookupChainAlias, networkByID, primaryAlias } from '../../../src/avalanche/networks.js'

const local = NETWORKS.local
const ctx = { chains: { xChainID: local.xChainID, pChainID: local.pChainID, cChainID: local.cChainID } }

describe('network IDs, HRPs and chain aliases (utils/constants)', () => {
  it('knows the HRPs and aliases', () => {
    expect([1, 2, 3, 4, 5, 10, 12345, 99].map(hrpForNetwork)).toEqual(['avax', 'cascade', 'denali', 'everest', 'fuji', 'testing', 'local', 'custom'])
    expect(lookupChainAlias(ctx.chains, 'avm')).toEqual(local.xChainID)
    expect(lookupChainAlias(ctx.chains, 'platform')).toEqual(local.pChainID)
    expect(lookupChainAlias(ctx.chains, cb58Encode(local.xChainID))).toEqual(local.xChainID)
    expect(() => lookupChainAlias(ctx.chains, 'x')).toThrow('there is no ID with alias: x')
    expect(primaryAlias(ctx.chains, local.pChainID)).toBe('P')
    expect(networkByID(5)?.name).toBe('fuji')
    expect(networkByID(7)).toBeUndefined()
  })
})
