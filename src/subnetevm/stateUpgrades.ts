import { hexToBytes } from '@ethereumjs/util'
import { z } from 'zod'
import type { PrecompileState } from './precompiles/state.js'
import { isForkTransition } from './upgradesAt.js'

/*
 * upgrade.json's `stateUpgrades` (subnet-evm params/extras/state_upgrade.go, stateupgrade/state_upgrade.go):
 * at a time, accounts get code (nonce 1 when theirs is 0), storage slots and a balance added. They
 * apply in the first block at or after their time, after that block's precompile activations
 * (core/state_processor_ext.go ApplyUpgrades).
 */

const Hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 32-byte hex hash')
/** math.HexOrDecimal256: a string, hex with 0x or decimal. */
const HexOrDecimal = z
  .string()
  .regex(/^(0x[0-9a-fA-F]+|[0-9]+)$/, 'expected a hex or decimal number')
  .transform((v) => BigInt(v))

const Account = z.object({
  code: z
    .string()
    .regex(/^0x([0-9a-fA-F]{2})*$/, 'expected hex bytes')
    .optional(),
  storage: z.record(Hash, Hash).optional(),
  balanceChange: HexOrDecimal.optional(),
})

const StateUpgradeJson = z.object({
  blockTimestamp: z.union([z.number().int().nonnegative(), z.bigint()]).optional(),
  accounts: z.record(z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected an address'), Account),
})

export interface StateUpgrade {
  blockTimestamp: bigint
  accounts: { address: Uint8Array; code?: Uint8Array; storage: [Uint8Array, Uint8Array][]; balanceChange?: bigint }[]
}

/** The state a state upgrade writes: the precompiles' state, and an account's nonce. */
export type StateUpgradeTarget = PrecompileState & { getNonce(address: Uint8Array): Promise<bigint> }

/**
 * upgrade.json's `stateUpgrades` parsed and verified (state_upgrade.go verifyStateUpgrades): each
 * with a timestamp above 0, strictly increasing. Throws with subnet-evm's text.
 */
export function parseStateUpgrades(value: unknown): StateUpgrade[] {
  if (!Array.isArray(value)) throw new Error('stateUpgrades: expected an array')
  let previous: bigint | undefined
  return value.map((raw, i) => {
    const parsed = StateUpgradeJson.safeParse(raw)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      throw new Error(`stateUpgrades[${i}].${issue.path.join('.')}: ${issue.message}`)
    }
    const t = parsed.data.blockTimestamp
    if (t === undefined) throw new Error(`state upgrade config block timestamp cannot be nil: StateUpgrade[${i}]`)
    const time = BigInt(t)
    if (time === 0n) throw new Error(`state upgrade config block timestamp must be greater than 0: StateUpgrade[${i}] has timestamp 0`)
    if (previous !== undefined && time <= previous) {
      throw new Error(`state upgrade config block timestamp must be greater than previous timestamp: StateUpgrade[${i}] has timestamp ${time}, previous timestamp ${previous}`)
    }
    previous = time
    return {
      blockTimestamp: time,
      accounts: Object.entries(parsed.data.accounts).map(([address, a]) => ({
        address: hexToBytes(address as `0x${string}`),
        ...(a.code !== undefined && { code: hexToBytes(a.code as `0x${string}`) }),
        storage: Object.entries(a.storage ?? {}).map(([k, v]) => [hexToBytes(k as `0x${string}`), hexToBytes(v as `0x${string}`)] as [Uint8Array, Uint8Array]),
        ...(a.balanceChange !== undefined && { balanceChange: a.balanceChange }),
      })),
    }
  })
}

/** The state upgrades taking effect between a parent at `parentTime` and a block at `time`, applied in order (stateupgrade.Configure; every chain here is past EIP-158). */
export async function applyStateUpgrades(upgrades: readonly StateUpgrade[], parentTime: bigint, time: bigint, state: StateUpgradeTarget): Promise<void> {
  for (const upgrade of upgrades) {
    if (!isForkTransition(upgrade.blockTimestamp, parentTime, time)) continue
    for (const a of upgrade.accounts) {
      // AddBalance of 0 still creates the account (state.CreateAccount when it does not exist).
      await state.addBalance(a.address, a.balanceChange ?? 0n)
      if (a.code !== undefined && a.code.length > 0) {
        if ((await state.getNonce(a.address)) === 0n) await state.setNonce(a.address, 1n)
        await state.setCode(a.address, a.code)
      }
      for (const [slot, value] of a.storage) await state.putStorage(a.address, slot, value)
    }
  }
}
