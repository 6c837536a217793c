/** The explorer's subnet-evm precompiles (explorer/src/precompiles.ts) against the node's own table, and the roles' accounts from a chain config and from RoleSet logs encoded by ethers. */
import { bytesToHex } from '@ethereumjs/util'
import { Interface } from 'ethers'
import { describe, expect, it } from 'vitest'
import { BLACKHOLE, PRECOMPILES, configuredAccounts, roleChanges, roleName } from '../../explorer/src/precompiles.js'
import { BLACKHOLE_ADDRESS, PRECOMPILE_MODULES } from '../../src/subnetevm/precompiles/modules.js'

const A = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'
const B = '0x' + '22'.repeat(20)
const C = '0x' + '33'.repeat(20)

describe('explorer precompiles', () => {
  it('knows the precompiles at the addresses and keys the node runs them, Warp the only one without an allow list', () => {
    expect(PRECOMPILES.map((p) => [p.key, p.address])).toEqual(PRECOMPILE_MODULES.map((m) => [m.key, bytesToHex(m.address)]))
    expect(PRECOMPILES.filter((p) => !p.allowList).map((p) => p.key)).toEqual(['warpConfig'])
    expect(BLACKHOLE).toBe(bytesToHex(BLACKHOLE_ADDRESS))
  })

  it('names the roles None 0, Enabled 1, Admin 2, Manager 3, and any other by its number', () => {
    expect([0n, 1n, 2n, 3n, 7n].map(roleName)).toEqual(['None', 'Enabled', 'Admin', 'Manager', 'role 7'])
  })

  it("takes a precompile's accounts from the genesis config and each precompileUpgrades entry, each once", () => {
    const config = {
      txAllowListConfig: { blockTimestamp: 0, adminAddresses: [A], enabledAddresses: [B] },
      feeManagerConfig: { blockTimestamp: 0, adminAddresses: [B] },
      upgrades: {
        precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: 10, disable: true } }, { txAllowListConfig: { blockTimestamp: 20, managerAddresses: [C], adminAddresses: [A.toLowerCase()] } }],
      },
    }
    expect(configuredAccounts(config, 'txAllowListConfig')).toEqual([A, B, C])
    expect(configuredAccounts(config, 'feeManagerConfig')).toEqual([B])
    expect(configuredAccounts(config, 'contractNativeMinterConfig')).toEqual([])
    expect(configuredAccounts({}, 'txAllowListConfig')).toEqual([])
  })

  it('decodes RoleSet logs as ethers encodes them and leaves other logs out', () => {
    const allowList = new Interface(['event RoleSet(uint256 indexed role, address indexed account, address indexed sender, uint256 oldRole)', 'event Other(uint256)'])
    const roleSet = allowList.encodeEventLog('RoleSet', [1n, B, A, 0n])
    const other = allowList.encodeEventLog('Other', [1n])
    const at = { address: PRECOMPILES[2]!.address, transactionHash: '0x' + 'ab'.repeat(32), blockNumber: '0x7' }
    expect(
      roleChanges([
        { ...at, ...roleSet },
        { ...at, ...other },
      ]),
    ).toEqual([{ precompile: PRECOMPILES[2]!.address, account: B, role: 1n, oldRole: 0n, sender: A.toLowerCase(), txHash: at.transactionHash, blockNumber: 7 }])
  })
})
