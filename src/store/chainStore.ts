import { type BatchOp, type Database, writeSynced } from './db.js'
import { META_GENESIS, META_HEAD, META_HEAD_STATE, PREFIX, bloomKey, canonicalKey, metaKey, prefixed, u64 } from './keys.js'

/** Location of a transaction: canonical block number and index in it. */
export interface TxLocation {
  blockNumber: bigint
  index: number
}

/** Everything one block adds, written in one atomic write together with the new head pointer. */
export interface BlockWrite {
  hash: Uint8Array
  number: bigint
  encodedBlock: Uint8Array
  encodedReceipts: Uint8Array
  /** The block's logs bloom, indexed by number for eth_getLogs. */
  bloom: Uint8Array
  txHashes: readonly Uint8Array[]
  /** The transactions' senders, 20 bytes each in order (empty without transactions). */
  senders?: Uint8Array
  /** Pending trie nodes and code of the block's state (TrieDB.drain()). */
  stateOps: readonly BatchOp[]
  /** Other records the block accepts (shared memory, accepted atomic txs), in the same batch. */
  extraOps?: readonly BatchOp[]
}

/** Blocks, receipts, canonical index, tx lookups and the head pointer (docs/SECURITY.md, D-a). */
export class ChainStore {
  constructor(private readonly db: Database) {}

  readHeadHash(): Uint8Array | undefined {
    return this.db.getSync(metaKey(META_HEAD)) ?? undefined
  }

  readGenesisHash(): Uint8Array | undefined {
    return this.db.getSync(metaKey(META_GENESIS)) ?? undefined
  }

  readBlock(hash: Uint8Array): Uint8Array | undefined {
    return this.db.getSync(prefixed(PREFIX.block, hash)) ?? undefined
  }

  readReceipts(hash: Uint8Array): Uint8Array | undefined {
    return this.db.getSync(prefixed(PREFIX.receipts, hash)) ?? undefined
  }

  /** The block's transaction senders (20 bytes each, in order), if the block was stored with them. */
  readSenders(hash: Uint8Array): Uint8Array | undefined {
    return this.db.getSync(prefixed(PREFIX.senders, hash)) ?? undefined
  }

  readCanonicalHash(number: bigint): Uint8Array | undefined {
    return this.db.getSync(canonicalKey(number)) ?? undefined
  }

  readTxLocation(txHash: Uint8Array): TxLocation | undefined {
    const v = this.db.getSync(prefixed(PREFIX.txLookup, txHash))
    if (v === undefined) return undefined
    const view = new DataView(v.buffer, v.byteOffset, v.byteLength)
    return { blockNumber: view.getBigUint64(0), index: view.getUint32(8) }
  }

  /**
   * Blooms of canonical blocks from..to (inclusive) in order, read with one iterator; a block
   * written before the bloom index existed reads as undefined (the caller falls back to its header).
   */
  async readBlooms(from: bigint, to: bigint): Promise<(Uint8Array | undefined)[]> {
    const out: (Uint8Array | undefined)[] = new Array(Number(to - from + 1n))
    const it = this.db.iterator({ gte: bloomKey(from), lte: bloomKey(to) })
    try {
      // nextv: one native call per thousand entries rather than a promise per entry.
      for (let batch = await it.nextv(1024); batch.length > 0; batch = await it.nextv(1024)) {
        for (const [key, value] of batch) {
          const n = new DataView(key.buffer, key.byteOffset + 1, 8).getBigUint64(0)
          out[Number(n - from)] = value
        }
      }
    } finally {
      await it.close()
    }
    return out
  }

  /** Whether a state trie node (by hash) is on disk: the head's state must exist at start (D-b). */
  hasStateNode(root: Uint8Array): boolean {
    return this.db.getSync(prefixed(PREFIX.state, root)) !== undefined
  }

  /** Commits a block, its receipts, indexes, state and the head pointer atomically and durably. */
  async writeBlock(w: BlockWrite, opts: { genesis?: boolean; pause?: () => Promise<void> } = {}): Promise<void> {
    const ops: BatchOp[] = [...w.stateOps]
    ops.push({ type: 'put', key: prefixed(PREFIX.block, w.hash), value: w.encodedBlock })
    ops.push({ type: 'put', key: prefixed(PREFIX.receipts, w.hash), value: w.encodedReceipts })
    if (w.senders !== undefined && w.senders.length > 0) ops.push({ type: 'put', key: prefixed(PREFIX.senders, w.hash), value: w.senders })
    ops.push({ type: 'put', key: canonicalKey(w.number), value: w.hash })
    ops.push({ type: 'put', key: bloomKey(w.number), value: w.bloom })
    const num = u64(w.number)
    w.txHashes.forEach((txHash, i) => {
      const loc = new Uint8Array(12)
      loc.set(num, 0)
      new DataView(loc.buffer).setUint32(8, i)
      ops.push({ type: 'put', key: prefixed(PREFIX.txLookup, txHash), value: loc })
    })
    if (w.extraOps !== undefined) ops.push(...w.extraOps)
    if (opts.genesis) ops.push({ type: 'put', key: metaKey(META_GENESIS), value: w.hash })
    ops.push({ type: 'put', key: metaKey(META_HEAD), value: w.hash })
    await writeSynced(this.db, ops, opts.pause)
  }

  /** A Helicon block's execution record (src/engine/chain/settlement.ts), if it has one. */
  readExecution(hash: Uint8Array): Uint8Array | undefined {
    return this.db.getSync(prefixed(PREFIX.execution, hash)) ?? undefined
  }

  executionOp(hash: Uint8Array, value: Uint8Array): BatchOp {
    return { type: 'put', key: prefixed(PREFIX.execution, hash), value }
  }

  /** The head's state root after development edits, if `headHash` is still the block they were made on. */
  readHeadState(headHash: Uint8Array): Uint8Array | undefined {
    const v = this.db.getSync(metaKey(META_HEAD_STATE))
    if (v === undefined || v === null || v.length !== 64 || Buffer.compare(v.subarray(0, 32), headHash) !== 0) return undefined
    return v.slice(32)
  }

  /** The op recording the head's state root after edits: a fork's first block whose origin had edited its state (forkBase.ts). */
  headStateOp(headHash: Uint8Array, root: Uint8Array): BatchOp {
    const value = new Uint8Array(64)
    value.set(headHash, 0)
    value.set(root, 32)
    return { type: 'put', key: metaKey(META_HEAD_STATE), value }
  }

  /** Writes an edit of the head's state (its trie and flat ops) with the root it leads to, in one atomic write. */
  async writeHeadState(headHash: Uint8Array, root: Uint8Array, ops: readonly BatchOp[]): Promise<void> {
    await writeSynced(this.db, [...ops, this.headStateOp(headHash, root)])
  }

  /** Moves the head pointer back (start-up recovery from a torn or stateless head, D-b). */
  async writeHead(hash: Uint8Array): Promise<void> {
    await writeSynced(this.db, [{ type: 'put', key: metaKey(META_HEAD), value: hash }])
  }
}
