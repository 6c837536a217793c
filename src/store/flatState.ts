import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP, equalsBytes } from '@ethereumjs/util'
import { type BatchOp, type Database, writeSynced } from './db.js'
import { META_FLAT_ROOT, PREFIX, metaKey } from './keys.js'
import { BoundedCache } from '../util/boundedCache.js'

/**
 * The flat state: the head's accounts and storage slots by key (keccak of the address, of the slot),
 * so a read is one lookup instead of a walk down the Merkle trie, as geth's snapshot layer does.
 * On LevelDB under 'f' and 'F', written in the batch of the block that changes it together with the
 * root it holds, so a crash never separates them; recent reads stay in memory. The trie stays the
 * source of state roots and proofs (docs/ARCHITECTURE.md, "Where state lives").
 *
 * Each block also leaves an undo layer (the values it overwrote), so a reader pinned to one of the
 * last blocks keeps its block's state while the head moves on.
 */
export interface FlatChanges {
  /** keccak(address) hex -> the account's trie RLP, or null when the account is gone */
  accounts: Map<string, Uint8Array | null>
  /** keccak(address) hex ‖ keccak(slot) hex -> the new value (empty = zero, deleted) */
  storage: Map<string, Uint8Array>
  /** keccak(address) hex of accounts whose stored slots all go before `storage` applies */
  cleared: Set<string>
  /** keccak hex -> the address or slot it hashes, for the keys above; recorded when the key is new (PREFIX.preimage) */
  preimages?: Map<string, Uint8Array>
}

/** A block's flat writes, made by stage() and undone by unstage() if the batch is not written. */
export interface StagedFlat {
  ops: BatchOp[]
  number: bigint
}

/**
 * What one kept entry costs in memory, key string, value and map slot (measured here with
 * scripts/bigState.ts): the budget (`snapshot-cache`, half for accounts, half for slots) is turned
 * into entry counts with these.
 */
const ACCOUNT_BYTES = 300
const SLOT_BYTES = 350
/** coreth's `snapshot-cache` default, 256 MiB. */
const DEFAULT_BUDGET = 256 * 1024 * 1024
/** Blocks whose undo layers are kept, and the most entries all layers hold together. */
const UNDO_BLOCKS = 128
const UNDO_ENTRIES = 100_000

const ACCOUNT = 'a'
const SLOT = 's'

interface UndoLayer {
  number: bigint
  /** cache key -> the value before the block (null = absent) */
  before: Map<string, Uint8Array | null>
}

export class FlatState {
  private readonly accounts: BoundedCache<string, Uint8Array | null>
  private readonly slots: BoundedCache<string, Uint8Array>
  private layers: UndoLayer[] = []
  private undoEntries = 0
  /** The block whose state the flat keys hold. */
  number = -1n
  /**
   * A fork's flat state (docs/FORK.md): it holds only what was read or written since the fork, so a
   * missing key is unknown (read the trie, fetching the origin's part) rather than absent.
   */
  partial = false

  /** `budget`: bytes of accounts and slots kept in memory at most; colder ones are read from LevelDB again. */
  constructor(
    private readonly db: Database,
    budget = DEFAULT_BUDGET,
  ) {
    this.accounts = new BoundedCache(Math.max(1024, Math.floor(budget / 2 / ACCOUNT_BYTES)))
    this.slots = new BoundedCache(Math.max(1024, Math.floor(budget / 2 / SLOT_BYTES)))
  }

  /** The root the stored flat state belongs to, if any. */
  storedRoot(): Uint8Array | undefined {
    return this.db.getSync(metaKey(META_FLAT_ROOT)) ?? undefined
  }

  /** Whether a reader at `number` can be answered: the head, or a block the undo layers still cover. */
  covers(number: bigint): boolean {
    if (number === this.number) return true
    const oldest = this.layers[0]
    return oldest !== undefined && number >= oldest.number - 1n && number < this.number
  }

  /**
   * The account RLP of keccak(address) at a block `covers()` accepts (undefined = the head), or null.
   * On a fork (`partial`), undefined: not known here, read it from the trie (src/engine/state/forkState.ts).
   */
  account(addrHash: string, at?: bigint): Uint8Array | null | undefined {
    if (at !== undefined && at !== this.number) {
      const old = this.before(ACCOUNT + addrHash, at)
      if (old === UNKNOWN) return undefined
      if (old !== undefined) return old
    }
    let v = this.accounts.get(addrHash)
    if (v === undefined) {
      const stored = this.db.getSync(flatKey(PREFIX.flatAccount, addrHash)) ?? undefined
      if (stored === undefined && this.partial) return undefined
      v = stored === undefined || stored.length === 0 ? null : stored
      this.accounts.set(addrHash, v)
    }
    return v
  }

  /** A slot value (leading zeros stripped; empty = zero) at a block `covers()` accepts; on a fork, undefined when not known here. */
  slot(addrHash: string, slotHash: string, at?: bigint): Uint8Array | undefined {
    const key = addrHash + slotHash
    if (at !== undefined && at !== this.number) {
      const old = this.before(SLOT + key, at)
      if (old === UNKNOWN) return undefined
      if (old !== undefined) return old ?? EMPTY
    }
    let v = this.slots.get(key)
    if (v === undefined) {
      const stored = this.db.getSync(flatKey(PREFIX.flatStorage, key)) ?? undefined
      if (stored === undefined && this.partial) return undefined
      v = stored ?? EMPTY
      this.slots.set(key, v)
    }
    return v
  }

  /**
   * Records the head's value of a key a fork read from the trie (an empty value stands for an
   * absent account), unless the head moved on since the read began (`number`) or the key was
   * written meanwhile. Outside any block's batch: it is what the trie holds, only remembered.
   */
  fill(kind: 'account' | 'slot', key: string, value: Uint8Array | null, number: bigint, preimage: Uint8Array): void {
    if (number !== this.number) return
    const cache = kind === 'account' ? this.accounts : this.slots
    if (cache.get(key) !== undefined) return
    const dbKey = flatKey(kind === 'account' ? PREFIX.flatAccount : PREFIX.flatStorage, key)
    if (this.db.getSync(dbKey) !== undefined) return
    if (kind === 'account') this.accounts.set(key, value)
    else this.slots.set(key, value ?? EMPTY)
    // With the preimage, so anvil_dumpState can name what a fork read.
    const named: BatchOp = { type: 'put', key: flatKey(PREFIX.preimage, kind === 'account' ? key : key.slice(64)), value: preimage }
    this.db.batch([{ type: 'put', key: dbKey, value: value ?? EMPTY }, named]).catch(() => {})
  }

  /** The value a key had before the first block after `at` that changed it; undefined = unchanged since. */
  private before(key: string, at: bigint): Uint8Array | null | undefined {
    for (const layer of this.layers) {
      if (layer.number <= at) continue
      const v = layer.before.get(key)
      if (v !== undefined) return v
    }
    return undefined
  }

  /**
   * Makes block `number`'s flat writes (state root `root`) and shows them to readers at once: a
   * reader pinned to an earlier block reads the undo layer, so the order against the batch write
   * does not matter. Returns the ops for the block's batch; call unstage() if it is not written.
   */
  async stage(changes: FlatChanges, number: bigint, root: Uint8Array): Promise<StagedFlat> {
    const ops: BatchOp[] = []
    const before = new Map<string, Uint8Array | null>()
    for (const addrHash of changes.cleared) {
      // A new contract clears its address's storage: skip the range read (it waits for LevelDB to have every write) where no slot can be.
      if (!this.partial && !mayHoldSlots(this.account(addrHash))) continue
      for await (const key of this.db.keys(storageRange(addrHash))) {
        const slotKey = Buffer.from(key.buffer, key.byteOffset + 1, key.byteLength - 1).toString('hex')
        if (!changes.storage.has(slotKey)) {
          before.set(SLOT + slotKey, this.slot(slotKey.slice(0, 64), slotKey.slice(64)) ?? UNKNOWN)
          ops.push({ type: 'del', key })
          this.slots.set(slotKey, EMPTY)
        }
      }
    }
    const preimage = (hash: string) => {
      const raw = changes.preimages?.get(hash)
      if (raw !== undefined) ops.push({ type: 'put', key: flatKey(PREFIX.preimage, hash), value: raw })
    }
    for (const [key, value] of changes.storage) {
      const old = this.slot(key.slice(0, 64), key.slice(64))
      before.set(SLOT + key, old ?? UNKNOWN)
      // A slot or account that comes into being gets its preimage in the same batch, so every stored key has one.
      if ((old === undefined || old.length === 0) && value.length > 0) preimage(key.slice(64))
      const dbKey = flatKey(PREFIX.flatStorage, key)
      ops.push(value.length === 0 ? { type: 'del', key: dbKey } : { type: 'put', key: dbKey, value })
      this.slots.set(key, value)
    }
    for (const [addrHash, rlp] of changes.accounts) {
      const old = this.account(addrHash)
      before.set(ACCOUNT + addrHash, old === undefined ? UNKNOWN : old)
      if ((old ?? null) === null && rlp !== null) preimage(addrHash)
      const dbKey = flatKey(PREFIX.flatAccount, addrHash)
      ops.push(rlp === null ? { type: 'del', key: dbKey } : { type: 'put', key: dbKey, value: rlp })
      this.accounts.set(addrHash, rlp)
    }
    ops.push(flatRootOp(root))
    this.pushLayer({ number, before })
    this.number = number
    return { ops, number }
  }

  /** The block (or the head's edit, `edit`) was not written: forget what stage() showed (the caches refill from disk). */
  unstage(staged: StagedFlat, edit = false): void {
    const last = this.layers[this.layers.length - 1]
    if (last?.number === staged.number) {
      this.layers.pop()
      this.undoEntries -= last.before.size
    }
    this.number = edit ? staged.number : staged.number - 1n
    this.accounts.clear()
    this.slots.clear()
  }

  private pushLayer(layer: UndoLayer): void {
    this.layers.push(layer)
    this.undoEntries += layer.before.size
    while (this.layers.length > UNDO_BLOCKS || (this.undoEntries > UNDO_ENTRIES && this.layers.length > 1)) {
      this.undoEntries -= this.layers.shift()!.before.size
    }
  }

  /**
   * Replaces the stored flat state with `entries` (walked from the trie at `root`, block `number`):
   * on first start, after an upgrade, or when the head fell back to an older block. The root is
   * written last, so an interrupted rebuild is simply done again.
   */
  async rebuild(root: Uint8Array, number: bigint, entries: AsyncIterable<{ addrHash: Uint8Array; account: Uint8Array; slots: [Uint8Array, Uint8Array][] }>): Promise<number> {
    await this.db.del(metaKey(META_FLAT_ROOT))
    await this.db.clear({ gte: Uint8Array.of(PREFIX.flatAccount), lt: Uint8Array.of(PREFIX.flatAccount + 1) })
    await this.db.clear({ gte: Uint8Array.of(PREFIX.flatStorage), lt: Uint8Array.of(PREFIX.flatStorage + 1) })
    let ops: BatchOp[] = []
    let count = 0
    for await (const { addrHash, account, slots } of entries) {
      ops.push({ type: 'put', key: concat(PREFIX.flatAccount, addrHash), value: account })
      for (const [slotHash, value] of slots) ops.push({ type: 'put', key: concat(PREFIX.flatStorage, addrHash, slotHash), value })
      count++
      if (ops.length >= 10_000) {
        await this.db.batch(ops)
        ops = []
      }
    }
    ops.push({ type: 'put', key: metaKey(META_FLAT_ROOT), value: root })
    await writeSynced(this.db, ops)
    this.accounts.clear()
    this.slots.clear()
    this.layers = []
    this.undoEntries = 0
    this.number = number
    return count
  }

  /** A fork's flat state dropped and started again empty at `root` (block `number`): every read then goes to the trie once. */
  async restartEmpty(root: Uint8Array, number: bigint): Promise<void> {
    await this.rebuild(root, number, (async function* () {})())
  }

  /** The address or slot whose keccak is `hash` (hex), if recorded (PREFIX.preimage). */
  preimage(hash: string): Uint8Array | undefined {
    return this.db.getSync(flatKey(PREFIX.preimage, hash)) ?? undefined
  }

  /** Every stored account with its slots (keccak keys), in key order: what anvil_dumpState walks. Call it with block building held. */
  async *entries(): AsyncGenerator<{ addrHash: string; account: Uint8Array; slots: [string, Uint8Array][] }> {
    for await (const [key, account] of this.db.iterator({ gte: Uint8Array.of(PREFIX.flatAccount), lt: Uint8Array.of(PREFIX.flatAccount + 1) })) {
      // An empty value: an account a fork found absent (fill).
      if (account.length === 0) continue
      const addrHash = Buffer.from(key.subarray(1)).toString('hex')
      const slots: [string, Uint8Array][] = []
      for await (const [slotKey, value] of this.db.iterator(storageRange(addrHash))) {
        if (value.length > 0) slots.push([Buffer.from(slotKey.subarray(33)).toString('hex'), value])
      }
      yield { addrHash, account, slots }
    }
  }

  /**
   * A revert put back `restored` (store/snapshotJournal.ts) and the head is block `number`: the keys
   * it put back are read again, undo layers of blocks above the head go. What was only read since the
   * snapshot is as it was, so the rest of what is kept stays.
   */
  afterRevert(number: bigint, restored: readonly Uint8Array[]): void {
    for (const key of restored) {
      if (key[0] === PREFIX.flatAccount) this.accounts.delete(hexOf(key))
      else if (key[0] === PREFIX.flatStorage) this.slots.delete(hexOf(key))
    }
    while (this.layers.length > 0 && this.layers[this.layers.length - 1]!.number > number) this.undoEntries -= this.layers.pop()!.before.size
    this.number = number
  }

  /** The head moved without a flat change of its own (start-up): only the head is answerable. */
  openAt(number: bigint): void {
    this.accounts.clear()
    this.slots.clear()
    this.number = number
    this.layers = []
    this.undoEntries = 0
  }
}

/** The op recording the root a flat state holds: a fork's empty flat state starts at the fork block's root. */
export function flatRootOp(root: Uint8Array): BatchOp {
  return { type: 'put', key: metaKey(META_FLAT_ROOT), value: root }
}

const EMPTY = new Uint8Array(0)
/** In an undo layer: the value before the block was not known here (a fork's key never read): readers go to the trie. */
const UNKNOWN = new Uint8Array(0)

function flatKey(prefix: number, hex: string): Uint8Array {
  const out = new Uint8Array(1 + hex.length / 2)
  out[0] = prefix
  Buffer.from(out.buffer, out.byteOffset + 1).write(hex, 'hex')
  return out
}

/** A flat key's cache key: the hex after its prefix. */
function hexOf(key: Uint8Array): string {
  return Buffer.from(key.buffer, key.byteOffset + 1, key.byteLength - 1).toString('hex')
}

function concat(prefix: number, ...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(1 + parts.reduce((n, p) => n + p.length, 0))
  out[0] = prefix
  let at = 1
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** The keys of one account's slots: keccak(address) followed by every 32-byte slot hash. */
/**
 * Whether an account (RLP; null = absent) can have slots in the flat state: slots are written with
 * their account's storage root and deleted with it (a deleted or cleared account's range is
 * emptied here), so an absent account or one with the empty root has none.
 */
function mayHoldSlots(rlp: Uint8Array | null | undefined): boolean {
  if (rlp === null) return false
  if (rlp === undefined) return true
  const storageRoot = (RLP.decode(rlp) as Uint8Array[])[2]
  return storageRoot === undefined || !equalsBytes(storageRoot, KECCAK256_RLP)
}

function storageRange(addrHash: string): { gte: Uint8Array; lte: Uint8Array } {
  return { gte: flatKey(PREFIX.flatStorage, addrHash), lte: flatKey(PREFIX.flatStorage, addrHash + 'ff'.repeat(32)) }
}
