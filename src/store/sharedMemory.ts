/**
 * The node's one shared memory between chains (avalanchego chains/atomic): a space per (source chain,
 * destination chain) holds the UTXOs the source exported to the destination, each listed by owner
 * address in avalanchego's order (chains/atomic/state.go); an import on the destination removes it, so it
 * is importable exactly once. The C-Chain's view (`direction` + `peerChain`) maps onto it: inbound
 * from X = (X -> C), outbound to X = (C -> X). Records live on LevelDB; the per-address index is kept
 * in memory and rebuilt at open.
 */
import { type BatchOp, type Database, writeSynced } from './db.js'
import { PREFIX, touches } from './keys.js'

/** inbound: a peer chain exported it to the C-Chain; outbound: the C-Chain exported it to the peer. */
export type SharedDirection = 'inbound' | 'outbound'

/** One shared-memory value (atomic.Element): the UTXO input ID, its codec bytes and its owner addresses. */
export interface SharedElement {
  /** DATA, 32 bytes: the UTXO's InputID */
  key: Uint8Array
  value: Uint8Array
  /** DATA, 20 bytes each: the addresses it is indexed under */
  traits: Uint8Array[]
}

/** A space seen from the C-Chain (inbound: peer -> C; outbound: C -> peer). */
export interface CChainSpace {
  direction: SharedDirection
  peerChain: Uint8Array
}

/** A space by its two chains: what `sourceChain` exported to `destinationChain`. */
export interface ChainPairSpace {
  sourceChain: Uint8Array
  destinationChain: Uint8Array
}

export type SpaceRef = CChainSpace | ChainPairSpace

/** Puts and removes on one space, as atomic.Requests. */
export type SharedRequests = SpaceRef & {
  puts?: readonly SharedElement[]
  removes?: readonly Uint8Array[]
}

/** Batch ops to write (with a block, or alone) and the in-memory update to run once they are on disk. */
export interface SharedMemoryWrite {
  ops: BatchOp[]
  applied(): void
}

/** A put of a value that exists or existed, or a remove of one that does not. */
export class SharedMemoryError extends Error {
  override name = 'SharedMemoryError'
}

/** One page of an address-indexed listing (avalanchego SharedMemory.Indexed). */
export interface IndexedPage {
  values: Uint8Array[]
  /** the last address iterated (the start address when none was) */
  lastTrait: Uint8Array
  /** the last key iterated under it, or undefined when it had none */
  lastKey: Uint8Array | undefined
}

interface Entry {
  seq: bigint
  key: Uint8Array
  value: Uint8Array
  traits: Uint8Array[]
}

interface Space {
  byKey: Map<string, Entry>
  /** address hex -> entries, newest (highest seq) first */
  byTrait: Map<string, Entry[]>
}

/** The retired C-relative layout's direction bytes (PREFIX.sharedUTXOByDirection), migrated at open. */
const LEGACY_INBOUND = 0x69
const TOMBSTONE = Uint8Array.of(0)
const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')
/** The local C-Chain ID (2owdGq…), the default C-Chain of `SharedMemory.open`. */
const LOCAL_C_CHAIN_ID = new Uint8Array(Buffer.from('ee488204088eaba3d3c0c5e26d7a2892677f8d6181ef31848708b4e55ead7667', 'hex'))

function recordKey(pair: ChainPairSpace, key: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + 32 + 32 + 32)
  out[0] = PREFIX.sharedMemory
  out.set(pair.sourceChain, 1)
  out.set(pair.destinationChain, 33)
  out.set(key, 65)
  return out
}

function encodeRecord(seq: bigint, e: SharedElement): Uint8Array {
  const out = new Uint8Array(8 + 2 + 20 * e.traits.length + e.value.length)
  const view = new DataView(out.buffer)
  view.setBigUint64(0, seq)
  view.setUint16(8, e.traits.length)
  for (const [i, t] of e.traits.entries()) out.set(t, 10 + 20 * i)
  out.set(e.value, 10 + 20 * e.traits.length)
  return out
}

function decodeRecord(key: Uint8Array, bytes: Uint8Array): Entry {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const seq = view.getBigUint64(0)
  const n = view.getUint16(8)
  const traits: Uint8Array[] = []
  // LevelDB hands out Buffers; callers get plain Uint8Arrays.
  for (let i = 0; i < n; i++) traits.push(new Uint8Array(bytes.subarray(10 + 20 * i, 30 + 20 * i)))
  return { seq, key: new Uint8Array(key), value: new Uint8Array(bytes.subarray(10 + 20 * n)), traits }
}

/** Shared memory on the node's LevelDB (chains/atomic state.go semantics, one process). */
export class SharedMemory {
  private readonly spaces = new Map<string, Space>()
  private nextSeq = 1n

  private constructor(
    private readonly db: Database,
    private readonly cChainID: Uint8Array,
  ) {}

  /**
   * Loads every live record and builds the address index; `cChainID` is the chain the C-relative
   * (`direction`, `peerChain`) requests stand for. Records of the retired C-relative layout are
   * rewritten into the (source, destination) layout first.
   */
  static async open(db: Database, opts: { cChainID?: Uint8Array } = {}): Promise<SharedMemory> {
    const sm = new SharedMemory(db, opts.cChainID ?? LOCAL_C_CHAIN_ID)
    await sm.migrateLegacy()
    await sm.load()
    return sm
  }

  /** Whether any of `keys` (a revert put them back) is a shared-memory record. */
  holdsAny(keys: readonly Uint8Array[]): boolean {
    return touches(keys, [PREFIX.sharedMemory, PREFIX.sharedUTXOByDirection])
  }

  /** Reads every live record and builds the address index (again, after a revert or reset put the database back). */
  async load(): Promise<void> {
    this.spaces.clear()
    this.nextSeq = 1n
    const it = this.db.iterator({ gte: Uint8Array.of(PREFIX.sharedMemory), lt: Uint8Array.of(PREFIX.sharedMemory + 1) })
    try {
      for (let batch = await it.nextv(1024); batch.length > 0; batch = await it.nextv(1024)) {
        for (const [k, v] of batch) {
          if (v.length <= 1) continue
          const entry = decodeRecord(k.subarray(65, 97), v)
          this.insert(this.space({ sourceChain: k.subarray(1, 33), destinationChain: k.subarray(33, 65) }), entry, false)
          if (entry.seq >= this.nextSeq) this.nextSeq = entry.seq + 1n
        }
      }
    } finally {
      await it.close()
    }
    for (const space of this.spaces.values()) for (const list of space.byTrait.values()) list.sort((a, b) => (a.seq > b.seq ? -1 : a.seq < b.seq ? 1 : 0))
  }

  /** 'U' + direction + peer + key (C-relative) -> 'S' + source + destination + key, tombstones included. */
  private async migrateLegacy(): Promise<void> {
    const ops: BatchOp[] = []
    const it = this.db.iterator({ gte: Uint8Array.of(PREFIX.sharedUTXOByDirection), lt: Uint8Array.of(PREFIX.sharedUTXOByDirection + 1) })
    try {
      for (let batch = await it.nextv(1024); batch.length > 0; batch = await it.nextv(1024)) {
        for (const [k, v] of batch) {
          const pair = this.pair({ direction: k[1] === LEGACY_INBOUND ? 'inbound' : 'outbound', peerChain: k.subarray(2, 34) })
          ops.push({ type: 'put', key: recordKey(pair, k.subarray(34, 66)), value: v }, { type: 'del', key: k })
        }
      }
    } finally {
      await it.close()
    }
    if (ops.length > 0) await writeSynced(this.db, ops)
  }

  /** The (source, destination) pair a space reference names. */
  private pair(ref: SpaceRef): ChainPairSpace {
    if ('sourceChain' in ref) return ref
    return ref.direction === 'inbound' ? { sourceChain: ref.peerChain, destinationChain: this.cChainID } : { sourceChain: this.cChainID, destinationChain: ref.peerChain }
  }

  private spaceID(ref: SpaceRef): string {
    const p = this.pair(ref)
    return `${hexOf(p.sourceChain)}:${hexOf(p.destinationChain)}`
  }

  private space(ref: SpaceRef): Space {
    const id = this.spaceID(ref)
    let space = this.spaces.get(id)
    if (space === undefined) {
      space = { byKey: new Map(), byTrait: new Map() }
      this.spaces.set(id, space)
    }
    return space
  }

  private insert(space: Space, entry: Entry, sorted: boolean): void {
    space.byKey.set(hexOf(entry.key), entry)
    for (const t of new Set(entry.traits.map(hexOf))) {
      let list = space.byTrait.get(t)
      if (list === undefined) space.byTrait.set(t, (list = []))
      if (!sorted) {
        list.push(entry)
        continue
      }
      // Newest first; a value prepared earlier but written later still goes by its seq.
      let i = 0
      while (i < list.length && list[i]!.seq > entry.seq) i++
      list.splice(i, 0, entry)
    }
  }

  private remove(space: Space, keyHex: string): void {
    const entry = space.byKey.get(keyHex)
    if (entry === undefined) return
    space.byKey.delete(keyHex)
    for (const t of new Set(entry.traits.map(hexOf))) {
      const list = space.byTrait.get(t)
      if (list === undefined) continue
      const i = list.indexOf(entry)
      if (i >= 0) list.splice(i, 1)
      if (list.length === 0) space.byTrait.delete(t)
    }
  }

  /** The values of these keys (undefined where absent), as SharedMemory.Get. */
  get(direction: SharedDirection, peerChain: Uint8Array, keys: readonly Uint8Array[]): (Uint8Array | undefined)[] {
    return this.getIn({ direction, peerChain }, keys)
  }

  /** `get` on any space. */
  getIn(ref: SpaceRef, keys: readonly Uint8Array[]): (Uint8Array | undefined)[] {
    const space = this.spaces.get(this.spaceID(ref))
    return keys.map((k) => space?.byKey.get(hexOf(k))?.value)
  }

  /** Whether a key is live in the space. */
  has(direction: SharedDirection, peerChain: Uint8Array, key: Uint8Array): boolean {
    return this.hasIn({ direction, peerChain }, key)
  }

  /** `has` on any space. */
  hasIn(ref: SpaceRef, key: Uint8Array): boolean {
    return this.spaces.get(this.spaceID(ref))?.byKey.has(hexOf(key)) ?? false
  }

  /**
   * Up to `limit` values indexed under `traits` (chains/atomic state.go getKeys): addresses in
   * ascending byte order from `startTrait`; under each, newest first, resuming at `startKey`
   * (inclusive) for the start address when it is still there; a value under two addresses is
   * returned once.
   */
  indexed(direction: SharedDirection, peerChain: Uint8Array, traits: readonly Uint8Array[], startTrait: Uint8Array, startKey: Uint8Array | undefined, limit: number): IndexedPage {
    return this.indexedIn({ direction, peerChain }, traits, startTrait, startKey, limit)
  }

  /** `indexed` on any space. */
  indexedIn(ref: SpaceRef, traits: readonly Uint8Array[], startTrait: Uint8Array, startKey: Uint8Array | undefined, limit: number): IndexedPage {
    const space = this.spaces.get(this.spaceID(ref))
    const sorted = uniqueSorted(traits)
    const values: Uint8Array[] = []
    const tracked = new Set<string>()
    let lastTrait = startTrait
    let lastKey = startKey
    let remaining = limit
    for (const trait of sorted) {
      const cmp = Buffer.compare(trait, startTrait)
      if (cmp < 0) continue
      const from = cmp > 0 ? undefined : startKey
      lastTrait = trait
      lastKey = from
      const list = space?.byTrait.get(hexOf(trait)) ?? []
      let i = from === undefined ? 0 : list.findIndex((e) => Buffer.compare(e.key, from) === 0)
      if (i < 0) i = 0
      for (; i < list.length && remaining > 0; i++) {
        const entry = list[i]!
        lastKey = entry.key
        const id = hexOf(entry.key)
        if (tracked.has(id)) continue
        tracked.add(id)
        values.push(entry.value)
        remaining--
      }
      if (remaining === 0) break
    }
    return { values, lastTrait, lastKey }
  }

  /**
   * Validates requests against what is on disk and in this batch and returns their ops: a put of a
   * key that exists or was consumed, or a remove of a key that is not live, throws.
   */
  prepare(requests: readonly SharedRequests[]): SharedMemoryWrite {
    const ops: BatchOp[] = []
    const inserts: { space: Space; entry: Entry }[] = []
    const removals: { space: Space; keyHex: string }[] = []
    const touched = new Set<string>()
    for (const req of requests) {
      const pair = this.pair(req)
      const space = this.space(pair)
      for (const key of req.removes ?? []) {
        const dbKey = recordKey(pair, key)
        const id = hexOf(dbKey)
        if (touched.has(id) || !space.byKey.has(hexOf(key))) throw new SharedMemoryError(`not found: ${hexOf(key)}`)
        touched.add(id)
        ops.push({ type: 'put', key: dbKey, value: TOMBSTONE })
        removals.push({ space, keyHex: hexOf(key) })
      }
      for (const e of req.puts ?? []) {
        const dbKey = recordKey(pair, e.key)
        const id = hexOf(dbKey)
        if (touched.has(id) || this.db.getSync(dbKey) !== undefined) {
          throw new SharedMemoryError(`duplicated operation on provided value: ${hexOf(e.key)}`)
        }
        touched.add(id)
        const seq = this.nextSeq++
        ops.push({ type: 'put', key: dbKey, value: encodeRecord(seq, e) })
        inserts.push({ space, entry: { seq, key: new Uint8Array(e.key), value: new Uint8Array(e.value), traits: e.traits.map((t) => new Uint8Array(t)) } })
      }
    }
    return {
      ops,
      applied: () => {
        for (const r of removals) this.remove(r.space, r.keyHex)
        for (const i of inserts) this.insert(i.space, i.entry, true)
      },
    }
  }

  /**
   * Puts of the values this space never held (neither live nor imported): a value already put or
   * consumed is left as it is, so a value fetched again (a fork's origin) never comes back once imported.
   */
  prepareNew(ref: SpaceRef, elements: readonly SharedElement[]): SharedMemoryWrite {
    const pair = this.pair(ref)
    const seen = new Set<string>()
    const fresh = elements.filter((e) => {
      const id = hexOf(e.key)
      if (seen.has(id) || this.db.getSync(recordKey(pair, e.key)) !== undefined) return false
      seen.add(id)
      return true
    })
    return this.prepare([{ ...pair, puts: fresh }])
  }

  /** Applies requests on their own, durably (one atomic write). */
  async apply(requests: readonly SharedRequests[]): Promise<void> {
    const write = this.prepare(requests)
    await writeSynced(this.db, write.ops)
    write.applied()
  }
}

function uniqueSorted(traits: readonly Uint8Array[]): Uint8Array[] {
  const byHex = new Map<string, Uint8Array>()
  for (const t of traits) byHex.set(hexOf(t), t)
  return [...byHex.values()].sort((a, b) => Buffer.compare(a, b))
}
