import type { BatchOp, Database } from './db.js'
import { PREFIX } from './keys.js'

/** One stored (still sealed) entry of a user: its key inside the user's space and the sealed value. */
export interface KeystoreEntry {
  readonly key: Uint8Array
  readonly value: Uint8Array
}

const enc = new TextEncoder()
const dec = new TextDecoder()

/**
 * prefix ‖ len(u32 BE) ‖ username: the length makes every user's key space disjoint, so `alice` and
 * `alice\0x` never share a prefix (docs/SECURITY.md, K2).
 */
function userPrefix(prefix: number, username: string): Uint8Array {
  const name = enc.encode(username)
  const out = new Uint8Array(5 + name.length)
  out[0] = prefix
  new DataView(out.buffer).setUint32(1, name.length)
  out.set(name, 5)
  return out
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** The upper bound of the keys starting with `prefix` (prefix with its last non-0xff byte + 1). */
function prefixEnd(prefix: Uint8Array): Uint8Array {
  const end = prefix.slice()
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]!++
      return end.subarray(0, i + 1)
    }
  }
  throw new Error('unbounded prefix')
}

/**
 * The keystore's records (src/store/keys.ts `keystoreUser`, `keystoreData`). Values arrive sealed or
 * as verifier records: this repository never sees a password or a plaintext key. Every write is one
 * atomic, fdatasync'd write (docs/SECURITY.md, D-d).
 */
export class KeystoreStore {
  constructor(private readonly deps: { db: Database }) {}

  /** One atomic write, fdatasync'd before it returns: a user's keys outlive a power loss too. Snapshots never undo the keystore, so no journal. */
  private write(ops: BatchOp[]): Promise<void> {
    return this.deps.db.write(ops, { sync: true })
  }

  /** The user's record, or undefined when there is no such user. */
  async getUser(username: string): Promise<Uint8Array | undefined> {
    return this.deps.db.get(userPrefix(PREFIX.keystoreUser, username))
  }

  /** Every username, sorted by their UTF-8 bytes (avalanchego's ListUsers order). */
  async listUsers(): Promise<string[]> {
    const start = Uint8Array.of(PREFIX.keystoreUser)
    const names: Uint8Array[] = []
    for await (const key of this.deps.db.keys({ gte: start, lt: prefixEnd(start) })) names.push(key.subarray(5))
    names.sort((a, b) => Buffer.compare(a, b))
    return names.map((n) => dec.decode(n))
  }

  /** The user's entries in key order. */
  async entries(username: string): Promise<KeystoreEntry[]> {
    const start = userPrefix(PREFIX.keystoreData, username)
    const out: KeystoreEntry[] = []
    for await (const [key, value] of this.deps.db.iterator({ gte: start, lt: prefixEnd(start) })) out.push({ key: key.subarray(start.length), value })
    return out
  }

  /** Writes a whole user (record and entries) in one atomic write: a crash leaves all of it or none. */
  async putUser(username: string, record: Uint8Array, entries: readonly KeystoreEntry[]): Promise<void> {
    const data = userPrefix(PREFIX.keystoreData, username)
    const ops: BatchOp[] = entries.map((e) => ({ type: 'put', key: concat(data, e.key), value: e.value }))
    ops.push({ type: 'put', key: userPrefix(PREFIX.keystoreUser, username), value: record })
    await this.write(ops)
  }

  /** One entry of the user's, or undefined. */
  async getEntry(username: string, key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.deps.db.get(concat(userPrefix(PREFIX.keystoreData, username), key))
  }

  /** Adds or replaces entries of an existing user and removes `deleted` (one atomic write). */
  async putEntries(username: string, entries: readonly KeystoreEntry[], deleted: readonly Uint8Array[] = []): Promise<void> {
    const data = userPrefix(PREFIX.keystoreData, username)
    const ops: BatchOp[] = entries.map((e) => ({ type: 'put', key: concat(data, e.key), value: e.value }))
    for (const key of deleted) ops.push({ type: 'del', key: concat(data, key) })
    await this.write(ops)
  }

  /** Removes the user's record and every entry in one atomic write. */
  async deleteUser(username: string): Promise<void> {
    const data = userPrefix(PREFIX.keystoreData, username)
    const ops: BatchOp[] = [{ type: 'del', key: userPrefix(PREFIX.keystoreUser, username) }]
    for await (const key of this.deps.db.keys({ gte: data, lt: prefixEnd(data) })) ops.push({ type: 'del', key })
    await this.write(ops)
  }
}
