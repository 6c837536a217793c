import { equalsBytes } from '@ethereumjs/util'

/**
 * The one registry of LevelDB key prefixes (one byte each). Retired prefixes stay listed,
 * commented out, and are never reused.
 */
export const PREFIX = {
  /** 'm' + name -> metadata value (head hash, genesis hash, schema version) */
  meta: 0x6d,
  /** 'h' + number(u64 BE) -> canonical block hash */
  canonical: 0x68,
  /** 'b' + hash(32) -> block RLP (header, transactions) */
  block: 0x62,
  /** 'r' + hash(32) -> receipts of the block, RLP */
  receipts: 0x72,
  /** 'l' + txHash(32) -> block number(u64 BE) ‖ index(u32 BE) */
  txLookup: 0x6c,
  /**
   * 'e' + hash(32) -> the senders of the block's transactions, 20 bytes each in transaction order, so a
   * block read back never recovers a signature (reth's TransactionSenders table); absent for a
   * block without transactions or one written before the record existed
   */
  senders: 0x65,
  /** 's' + trie key -> Merkle Patricia node / contract code (ethereumjs key layout) */
  state: 0x73,
  /** 'B' + number(u64 BE) -> the canonical block's logs bloom (256 bytes), the eth_getLogs index */
  bloom: 0x42,
  /**
   * Retired (migrated into `sharedMemory` at open): 'U' + direction ('i' inbound: a peer chain exported it to the C-Chain; 'o' outbound: the C-Chain
   * exported it) + peer chain ID(32) + UTXO input ID(32) -> insertion seq(u64 BE) ‖ address count(u16 BE)
   * ‖ owner addresses(20 each) ‖ UTXO codec bytes, or a 1-byte tombstone once consumed (shared memory,
   * src/store/sharedMemory.ts; its address index is rebuilt in memory at open)
   */
  sharedUTXOByDirection: 0x55,
  /**
   * 'S' + source chain ID(32) + destination chain ID(32) + UTXO input ID(32) -> insertion seq(u64 BE)
   * ‖ address count(u16 BE) ‖ owner addresses(20 each) ‖ UTXO codec bytes, or a 1-byte tombstone once
   * imported: the one shared memory between chains (src/store/sharedMemory.ts)
   */
  sharedMemory: 0x53,
  /** 'a' + atomic txID(32) -> accepting block height(u64 BE) ‖ signed tx bytes (accepted atomic txs) */
  atomicTx: 0x61,
  /**
   * 'k' + username length(u32 BE) + username (UTF-8) -> keystore user record: KDF parameters, salts and
   * password verifier, never the password (src/keystore/userRecord.ts)
   */
  keystoreUser: 0x6b,
  /**
   * 'K' + username length(u32 BE) + username + entry key -> that user's value sealed with its data key
   * (XChaCha20-Poly1305, nonce ‖ ciphertext ‖ tag); entry 'c' + seq(u32 BE) = a C-Chain private key
   */
  keystoreData: 0x4b,
  /** 'x' + UTXO input ID(32) -> UTXO codec bytes: the X-Chain's unspent UTXOs (deleted when spent) */
  xUTXO: 0x78,
  /** 'X' + txID(32) -> accepting X block height(u64 BE) ‖ signed tx bytes (accepted X-Chain txs) */
  xTx: 0x58,
  /** 'p' + UTXO input ID(32) -> address count(u16 BE) ‖ owners(20 each) ‖ UTXO codec bytes: the P-Chain's unspent UTXOs */
  pUTXO: 0x70,
  /** 'P' + txID(32) -> accepting P block height(u64 BE) ‖ signed tx bytes (accepted P-Chain txs) */
  pTx: 0x50,
  /** 'f' + keccak(address)(32) -> the head's account as the state trie stores it (RLP of nonce, balance, storage root, code hash): the flat state */
  flatAccount: 0x66,
  /** 'F' + keccak(address)(32) + keccak(slot)(32) -> the head's slot value, leading zeros stripped: the flat state */
  flatStorage: 0x46,
  /**
   * 'j' + seq(u64 BE) -> RLP list of [key] (absent before) or [key, value]: what one atomic write overwrote
   * while a snapshot was live, so evm_revert can write it back (src/store/snapshotJournal.ts)
   */
  snapshotJournal: 0x6a,
  /**
   * 'i' + keccak(x)(32) -> x: the address or storage slot a flat-state key hashes (geth's preimages), written
   * in the batch that first creates the account or slot, so anvil_dumpState can name them (src/dev/stateDump.ts)
   */
  preimage: 0x69,
  /**
   * 'o' + keccak(fork point hash(32) ‖ method ‖ 0x00 ‖ canonical JSON of the params)(32) -> the fork origin's
   * answer (JSON text) to a call about its immutable history: a block, tx, receipt or logs at or before
   * the fork point (src/store/originCache.ts); plain puts, kept by a fork's reset
   */
  originCache: 0x6f,
  /**
   * 'u' + source chain ID(32) + address(20) -> empty: a fork fetched its origin's atomic UTXOs that the source
   * chain exported to this chain for that address (src/store/originUTXOMarks.ts), written in the batch that puts
   * them into shared memory, so they are never fetched again (an import here consumes them for good)
   */
  originUTXOsFetched: 0x75,
  /**
   * 'W' + Warp message ID(32) -> accepting block height(u64 BE) ‖ the unsigned message's bytes: the messages the
   * chain's accepted blocks sent (src/store/warpMessageStore.ts), written in the block's batch (a revert takes them back)
   */
  warpMessage: 0x57,
  /**
   * 'w' -> the sequence number (u64 BE) of the last write-ahead-log record LevelDB holds, written with every flush
   * (src/store/database.ts): at open, the log's later records are replayed, and a gap stops the replay
   */
  wal: 0x77,
  /**
   * 'E' + block hash(32) -> RLP [post-execution state root, executed base fee, gas clock seconds, fraction, rate, excess,
   * minimum price]: a Helicon block's execution (src/engine/chain/settlement.ts), written in the block's batch; its
   * header carries the root of the last block it settles instead
   */
  execution: 0x45,
} as const

export const META_HEAD = 'head'
export const META_GENESIS = 'genesis'
/** The state root the flat state holds (written in each block's batch); absent or different = rebuild it from the trie. */
export const META_FLAT_ROOT = 'flat-root'
/** The X-Chain's last accepted height (u64 BE); absent until its genesis UTXOs are written. */
export const META_X_HEIGHT = 'x-height'
/** The P-Chain's last accepted height (u64 BE); absent until its genesis UTXOs are written. */
export const META_P_HEIGHT = 'p-height'
/** The P-Chain's Etna fee state after its last accepted tx: capacity(u64 BE) ‖ excess(u64 BE) ‖ unix seconds(u64 BE). */
export const META_P_FEE_STATE = 'p-fee-state'
/** Live snapshots: RLP [next id, next journal seq]; each snapshot under this key ‖ 0x00 ‖ u64 id: RLP [id, first seq, owner's extra] (src/store/snapshotJournal.ts). */
export const META_SNAPSHOTS = 'snapshots'
/**
 * A forked chain's fork point (docs/FORK.md): RLP [number, hash, state root, chain ID, the origin's block N as JSON
 * text]; written with block N, the chain's first block, so a restart (or a reset) needs no origin.
 */
export const META_FORK = 'fork'
/** After development edits (anvil_setBalance...) of the head's state: head hash(32) ‖ the state root now; stale once another block is the head. */
export const META_HEAD_STATE = 'head-state'

const enc = new TextEncoder()

/** prefix ‖ bytes. */
/** A key as a string for Map keys: one char per byte (latin1), no copy of the bytes. */
export function keyString(key: Uint8Array): string {
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1')
}

export function prefixed(prefix: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + body.length)
  out[0] = prefix
  out.set(body, 1)
  return out
}

/** Whether any of `keys` is one of `exact` or starts with one of the one-byte `prefixes` (what a revert put back, store/snapshotJournal.ts). */
export function touches(keys: readonly Uint8Array[], prefixes: readonly number[], exact: readonly Uint8Array[] = []): boolean {
  return keys.some((k) => prefixes.includes(k[0]!) || exact.some((e) => equalsBytes(e, k)))
}

export function metaKey(name: string): Uint8Array {
  return prefixed(PREFIX.meta, enc.encode(name))
}

export function u64(n: bigint | number): Uint8Array {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, BigInt(n))
  return out
}

/** The one key of PREFIX.wal. */
export const WAL_SEQ_KEY = Uint8Array.of(PREFIX.wal)

export function canonicalKey(number: bigint): Uint8Array {
  return prefixed(PREFIX.canonical, u64(number))
}

export function bloomKey(number: bigint): Uint8Array {
  return prefixed(PREFIX.bloom, u64(number))
}
