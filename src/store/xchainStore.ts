/**
 * The X-Chain's ledger on the node's LevelDB (avalanchego vms/avm/state, vms/components/avax utxo_state.go):
 * unspent UTXOs by input ID (deleted when spent), accepted txs with their height, and the last accepted
 * height. The per-address index is kept in memory and rebuilt at open. Every accept is one atomic write,
 * shared-memory effects included.
 */
import { type BatchOp, type Database, writeSynced } from './db.js'
import { META_X_HEIGHT, PREFIX, metaKey, prefixed, touches, u64 } from './keys.js'

/** A UTXO as the store keeps it: its input ID, codec bytes and owner addresses. */
export interface StoredXUTXO {
  /** 32 bytes: sha256-derived UTXO input ID (txID ⊕ outputIndex) */
  inputID: Uint8Array
  bytes: Uint8Array
  /** 20 bytes each */
  owners: Uint8Array[]
}

/** An accepted X-Chain tx. */
export interface StoredXTx {
  height: bigint
  signedBytes: Uint8Array
}

/** One page of avax.GetPaginatedUTXOs. */
export interface XUTXOPage {
  utxos: Uint8Array[]
  lastAddr: Uint8Array
  lastUTXOID: Uint8Array
}

/** Where a UTXO ledger lives: its UTXO and tx prefixes and its height meta key (X by default; P uses its own). */
export interface LedgerLayout {
  utxo: number
  tx: number
  heightKey: string
}

/** The X-Chain's layout. */
export const X_LEDGER: LedgerLayout = { utxo: PREFIX.xUTXO, tx: PREFIX.xTx, heightKey: META_X_HEIGHT }

const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')

function encodeRecord(u: StoredXUTXO): Uint8Array {
  const out = new Uint8Array(2 + 20 * u.owners.length + u.bytes.length)
  new DataView(out.buffer).setUint16(0, u.owners.length)
  for (const [i, o] of u.owners.entries()) out.set(o, 2 + 20 * i)
  out.set(u.bytes, 2 + 20 * u.owners.length)
  return out
}

function decodeRecord(inputID: Uint8Array, v: Uint8Array): StoredXUTXO {
  const n = new DataView(v.buffer, v.byteOffset, v.byteLength).getUint16(0)
  const owners: Uint8Array[] = []
  for (let i = 0; i < n; i++) owners.push(new Uint8Array(v.subarray(2 + 20 * i, 22 + 20 * i)))
  return { inputID: new Uint8Array(inputID), owners, bytes: new Uint8Array(v.subarray(2 + 20 * n)) }
}

export class XChainStore {
  private readonly utxos = new Map<string, StoredXUTXO>()
  /** address hex -> input IDs hex, kept sorted ascending */
  private readonly byAddr = new Map<string, string[]>()
  private _height = 0n

  private constructor(
    private readonly db: Database,
    private readonly layout: LedgerLayout,
    private readonly genesis: readonly StoredXUTXO[],
  ) {}

  /** Opens the ledger; the first open writes the genesis UTXOs at height 0 (one atomic write). */
  static async open(db: Database, genesis: readonly StoredXUTXO[], layout: LedgerLayout = X_LEDGER): Promise<XChainStore> {
    const store = new XChainStore(db, layout, genesis)
    await store.load()
    return store
  }

  /** Whether any of `keys` (a revert put them back) is one of this ledger's records. */
  holdsAny(keys: readonly Uint8Array[]): boolean {
    return touches(keys, [this.layout.utxo, this.layout.tx], [metaKey(this.layout.heightKey)])
  }

  /** Reads the ledger from the database (again, after a revert or reset put it back), writing the genesis if it is not there. */
  async load(): Promise<void> {
    const { db, layout } = this
    this.utxos.clear()
    this.byAddr.clear()
    this._height = 0n
    const h = db.getSync(metaKey(layout.heightKey))
    if (h === undefined || h === null) {
      const ops: BatchOp[] = this.genesis.map((u) => ({ type: 'put', key: prefixed(layout.utxo, u.inputID), value: encodeRecord(u) }))
      ops.push({ type: 'put', key: metaKey(layout.heightKey), value: u64(0n) })
      await writeSynced(db, ops)
    } else {
      this._height = new DataView(h.buffer, h.byteOffset, 8).getBigUint64(0)
    }
    const it = db.iterator({ gte: Uint8Array.of(layout.utxo), lt: Uint8Array.of(layout.utxo + 1) })
    try {
      for (let batch = await it.nextv(1024); batch.length > 0; batch = await it.nextv(1024)) {
        for (const [k, v] of batch) this.index(decodeRecord(k.subarray(1), v))
      }
    } finally {
      await it.close()
    }
    for (const list of this.byAddr.values()) list.sort()
  }

  private index(u: StoredXUTXO, sorted = false): void {
    const id = hexOf(u.inputID)
    this.utxos.set(id, u)
    for (const a of new Set(u.owners.map(hexOf))) {
      let list = this.byAddr.get(a)
      if (list === undefined) this.byAddr.set(a, (list = []))
      if (!sorted) {
        list.push(id)
        continue
      }
      let i = 0
      while (i < list.length && list[i]! < id) i++
      list.splice(i, 0, id)
    }
  }

  private unindex(idHex: string): void {
    const u = this.utxos.get(idHex)
    if (u === undefined) return
    this.utxos.delete(idHex)
    for (const a of new Set(u.owners.map(hexOf))) {
      const list = this.byAddr.get(a)
      const i = list?.indexOf(idHex) ?? -1
      if (list !== undefined && i >= 0) list.splice(i, 1)
      if (list !== undefined && list.length === 0) this.byAddr.delete(a)
    }
  }

  /** The last accepted height (0 = genesis). */
  get height(): bigint {
    return this._height
  }

  /** The unspent UTXO with this input ID. */
  getUTXO(inputID: Uint8Array): StoredXUTXO | undefined {
    return this.utxos.get(hexOf(inputID))
  }

  /** Every unspent UTXO an address owns (in input-ID order). */
  utxosOf(addr: Uint8Array): StoredXUTXO[] {
    return (this.byAddr.get(hexOf(addr)) ?? []).map((id) => this.utxos.get(id)!)
  }

  /** avax.GetPaginatedUTXOs: addresses ascending from `lastAddr`, input IDs ascending after `lastUTXOID`. */
  paginated(addrs: readonly Uint8Array[], lastAddr: Uint8Array, lastUTXOID: Uint8Array, limit: number): XUTXOPage {
    const sorted = [...new Map(addrs.map((a) => [hexOf(a), a])).values()].sort((a, b) => Buffer.compare(a, b))
    const out: Uint8Array[] = []
    const seen = new Set<string>()
    let remaining = limit
    for (const addr of sorted) {
      const cmp = Buffer.compare(addr, lastAddr)
      if (cmp < 0) continue
      const start = cmp === 0 ? hexOf(lastUTXOID) : undefined
      lastAddr = addr
      for (const id of this.byAddr.get(hexOf(addr)) ?? []) {
        if (start !== undefined && id <= start) continue
        if (remaining <= 0) break
        lastUTXOID = this.utxos.get(id)!.inputID
        if (seen.has(id)) continue
        seen.add(id)
        out.push(this.utxos.get(id)!.bytes)
        if (--remaining <= 0) return { utxos: out, lastAddr, lastUTXOID }
      }
    }
    return { utxos: out, lastAddr, lastUTXOID }
  }

  /** The accepted tx with this ID. */
  getTx(txID: Uint8Array): StoredXTx | undefined {
    const v = this.db.getSync(prefixed(this.layout.tx, txID))
    if (v === undefined || v === null) return undefined
    return { height: new DataView(v.buffer, v.byteOffset, 8).getBigUint64(0), signedBytes: new Uint8Array(v.subarray(8)) }
  }

  /** Every accepted tx with its ID, in ID order (for the few listings that need them all: the P-Chain's subnets). */
  async txs(): Promise<(StoredXTx & { id: Uint8Array })[]> {
    const out: (StoredXTx & { id: Uint8Array })[] = []
    const it = this.db.iterator({ gte: Uint8Array.of(this.layout.tx), lt: Uint8Array.of(this.layout.tx + 1) })
    try {
      for (let batch = await it.nextv(1024); batch.length > 0; batch = await it.nextv(1024)) {
        for (const [k, v] of batch) out.push({ id: new Uint8Array(k.subarray(1)), height: new DataView(v.buffer, v.byteOffset, 8).getBigUint64(0), signedBytes: new Uint8Array(v.subarray(8)) })
      }
    } finally {
      await it.close()
    }
    return out
  }

  /**
   * Accepts a tx in a block of its own at height+1: spends `spent`, adds `produced`, records the tx and
   * the height, and writes `extraOps` (shared memory) in the same atomic write; `applied` runs after.
   */
  async accept(txID: Uint8Array, signedBytes: Uint8Array, spent: readonly Uint8Array[], produced: readonly StoredXUTXO[], extra: { ops: BatchOp[]; applied(): void }): Promise<bigint> {
    const height = this._height + 1n
    const txValue = new Uint8Array(8 + signedBytes.length)
    new DataView(txValue.buffer).setBigUint64(0, height)
    txValue.set(signedBytes, 8)
    const ops: BatchOp[] = [
      ...spent.map((id): BatchOp => ({ type: 'del', key: prefixed(this.layout.utxo, id) })),
      ...produced.map((u): BatchOp => ({ type: 'put', key: prefixed(this.layout.utxo, u.inputID), value: encodeRecord(u) })),
      { type: 'put', key: prefixed(this.layout.tx, txID), value: txValue },
      { type: 'put', key: metaKey(this.layout.heightKey), value: u64(height) },
      ...extra.ops,
    ]
    await writeSynced(this.db, ops)
    this._height = height
    for (const id of spent) this.unindex(hexOf(id))
    for (const u of produced) this.index(u, true)
    extra.applied()
    return height
  }
}
