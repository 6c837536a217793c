import { hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { setRole } from '../../../../src/subnetevm/precompiles/allowList.js'
import { deployNotAllowedError, isDeployAllowed, isTxAllowed, txNotAllowedError } from '../../../../src/subnetevm/precompiles/allowListGates.js'
import { DEPLOYER_ALLOW_LIST_ADDRESS, TX_ALLOW_LIST_ADDRESS } from '../../../../src/subnetevm/precompiles/modules.js'
import { ROLE } from '../../../../src/subnetevm/precompiles/roles.js'
import { MemoryState } from './memoryState.js'

/* subnet-evm params/hooks_libevm.go CanCreateContract and core/txpool/validation.go: Enabled, Manager and Admin pass. */

const ACCOUNT = hexToBytes('0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc')

describe('the allow list gates', () => {
  it.each([
    [ROLE.None, false],
    [ROLE.Enabled, true],
    [ROLE.Admin, true],
    [ROLE.Manager, true],
    [4n, false],
  ])('role %s: allowed %s, each list read on its own', async (role, allowed) => {
    const deployer = new MemoryState()
    await setRole(deployer, DEPLOYER_ALLOW_LIST_ADDRESS, ACCOUNT, role)
    expect(await isDeployAllowed(deployer, ACCOUNT)).toBe(allowed)
    expect(await isTxAllowed(deployer, ACCOUNT)).toBe(false)
    const tx = new MemoryState()
    await setRole(tx, TX_ALLOW_LIST_ADDRESS, ACCOUNT, role)
    expect(await isTxAllowed(tx, ACCOUNT)).toBe(allowed)
    expect(await isDeployAllowed(tx, ACCOUNT)).toBe(false)
  })

  it('words the refusals as subnet-evm does', () => {
    expect(deployNotAllowedError(ACCOUNT)).toBe('tx.origin 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC is not authorized to deploy a contract')
    expect(txNotAllowedError(ACCOUNT)).toBe('cannot issue transaction from non-allow listed address: 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC')
  })
})
