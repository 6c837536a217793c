import type { BatchOp, Database } from './db.js'
import { META_P_FEE_STATE, META_P_HEIGHT, PREFIX, metaKey, touches } from './keys.js'
import { type LedgerLayout, type StoredXUTXO, XChainStore } from './xchainStore.js'

/** The P-Chain ledger's place on the node's LevelDB. */
export const P_LEDGER: LedgerLayout = { utxo: PREFIX.pUTXO, tx: PREFIX.pTx, heightKey: META_P_HEIGHT }

/** The P-Chain's Etna fee state with the chain time (unix seconds) it belongs to. */
export interface StoredFeeState {
  capacity: bigint
  excess: bigint
  time: bigint
}

/**
 * The P-Chain on the node's LevelDB: its ledger (UTXOs, accepted txs and height, laid out as the
 * X-Chain's) and the fee state saved with each accepted tx.
 */
export class PChainStore {
  private constructor(
    readonly ledger: XChainStore,
    private readonly db: Database,
  ) {}

  /** Opens the ledger; the first open writes `genesis` at height 0. */
  static async open(db: Database, genesis: readonly StoredXUTXO[]): Promise<PChainStore> {
    return new PChainStore(await XChainStore.open(db, genesis, P_LEDGER), db)
  }

  /** Whether any of `keys` (a revert put them back) is one of the P ledger's records or its fee state. */
  holdsAny(keys: readonly Uint8Array[]): boolean {
    return this.ledger.holdsAny(keys) || touches(keys, [], [metaKey(META_P_FEE_STATE)])
  }

  /** The fee state saved with the last accepted tx; undefined before the first. */
  readFeeState(): StoredFeeState | undefined {
    const raw = this.db.getSync(metaKey(META_P_FEE_STATE))
    if (raw === undefined || raw === null) return undefined
    const v = new DataView(raw.buffer, raw.byteOffset, raw.byteLength)
    return { capacity: v.getBigUint64(0), excess: v.getBigUint64(8), time: v.getBigUint64(16) }
  }

  /** The write that saves `s`, for the accepted tx's batch: capacity ‖ excess ‖ time, u64 BE each. */
  feeStateOp(s: StoredFeeState): BatchOp {
    const value = new Uint8Array(24)
    const v = new DataView(value.buffer)
    v.setBigUint64(0, s.capacity)
    v.setBigUint64(8, s.excess)
    v.setBigUint64(16, s.time)
    return { type: 'put', key: metaKey(META_P_FEE_STATE), value }
  }
}
