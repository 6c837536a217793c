/**
 * The local P-Chain genesis UTXOs (avalanchego genesis/genesis.go FromConfig → vms/platformvm/genesis New):
 * every unlock of every allocation not in `initialStakedFunds`, in config order, becomes the UTXO
 * {txID: 32 zero bytes, outputIndex: i} of a 1-of-1 secp256k1fx.TransferOutput, wrapped in a
 * stakeable.LockOut when its locktime is after the genesis time.
 *
 * ewoq (X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u) holds index 0: 20,000,000 AVAX unlocked and index 1:
 * 10,000,000 AVAX until 1633824000; index 2 is X-local1ur873…'s 10,000,000 AVAX until 1633824000.
 * Issue 7 wants the locked unlocks as StakeableLockOut (genesis time before the locktime: the
 * default here). Current avalanchego moves the local start time forward (1721016000 + 9-month steps), after
 * the locktime, and would write plain TransferOutputs instead: pass that time to get its shape.
 */
import { parseBech32 } from '../avalanche/address.js'
import { NETWORKS } from '../avalanche/networks.js'
import type { PVMUTXO } from './tx.js'

export interface PUnlock {
  /** 20-byte short address */
  address: Uint8Array
  amount: bigint
  locktime: bigint
}

const bech = (a: string): Uint8Array => parseBech32(a).bytes
const EWOQ = bech('local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u')
const UR873 = bech('local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu')

/** The locktime of the local genesis' locked unlocks. */
export const LOCAL_GENESIS_LOCKTIME = 1_633_824_000n
/** genesis_local.json's startTime (avalanchego advances it in 9-month steps for local networks). */
export const LOCAL_CONFIG_START_TIME = 1_721_016_000n

/** The local P-Chain allocations in UTXO order (X-local1g65uq… is staked at genesis and skipped). */
export const LOCAL_P_UNLOCKS: readonly PUnlock[] = [
  { address: EWOQ, amount: 20_000_000_000_000_000n, locktime: 0n },
  { address: EWOQ, amount: 10_000_000_000_000_000n, locktime: LOCAL_GENESIS_LOCKTIME },
  { address: UR873, amount: 10_000_000_000_000_000n, locktime: LOCAL_GENESIS_LOCKTIME },
]

/** Genesis UTXOs of the given unlocks; an unlock with locktime > genesisTime becomes a StakeableLockOut. */
export function genesisPUTXOs(unlocks: readonly PUnlock[], avaxAssetID: Uint8Array, genesisTime: bigint): PVMUTXO[] {
  return unlocks.map((u, i) => ({
    utxoID: { txID: new Uint8Array(32), outputIndex: i },
    assetID: avaxAssetID,
    out: { amount: u.amount, locktime: 0n, threshold: 1, addrs: [u.address] },
    ...(u.locktime > genesisTime ? { locktime: u.locktime } : {}),
  }))
}

/** The local P-Chain genesis UTXOs; by default (genesisTime 0) the locked unlocks are StakeableLockOut. */
export function localPGenesisUTXOs(genesisTime = 0n): PVMUTXO[] {
  return genesisPUTXOs(LOCAL_P_UNLOCKS, NETWORKS.local.avaxAssetID, genesisTime)
}

/**
 * The node as a validator, as avalanchego's local genesis makes staker 1 (genesis/genesis_local.json,
 * genesis/genesis.go): 1e16 nAVAX staked over 5 stakers (2e15 each); staking from the local network's
 * start time, which avalanchego moves forward in 9-month steps to the last one before now
 * (genesis/config.go getRecentStartTime), for initialStakeDuration (one year); delegation fee
 * 1,000,000 millionths (100 %); rewards to ewoq (on the local network only).
 */
export interface ValidatorStake {
  readonly weight: bigint
  readonly startTime: bigint
  readonly endTime: bigint
  readonly delegationShares: number
  readonly rewardAddress?: Uint8Array
}

const NINE_MONTHS = 9n * 30n * 24n * 3600n
const INITIAL_STAKE_DURATION = 31_536_000n

/** The node's stake at `now` (unix seconds). */
export function validatorStake(local: boolean, now: bigint): ValidatorStake {
  let startTime = LOCAL_CONFIG_START_TIME
  while (startTime + NINE_MONTHS <= now) startTime += NINE_MONTHS
  return {
    weight: 2_000_000_000_000_000n,
    startTime,
    endTime: startTime + INITIAL_STAKE_DURATION,
    delegationShares: 1_000_000,
    ...(local && { rewardAddress: EWOQ }),
  }
}
