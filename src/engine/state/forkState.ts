import { randomBytes } from 'node:crypto'
import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP, bytesToHex, createAccountFromRLP, equalsBytes, hexToBytes } from '@ethereumjs/util'
import type { Logger } from 'pino'
import { ForkError, OriginRpcError } from '../../fork/errors.js'
import { type TrieDB, codeKey } from '../../store/trieDb.js'
import { BoundedCache } from '../../util/boundedCache.js'
import { keccak256 } from '../../util/crypto.js'
import type { StateFetcher } from './flatView.js'
import type { OriginClient } from '../../fork/originClient.js'
import type { Fork, ForkPoint } from './forkPoint.js'
import { MissingTrieNodeError, trieLookup, type TrieNodes } from './trieBatch.js'

/** What eth_getProof answers (EIP-1186); only the proofs are used: values are read from the trie they rebuild. */
interface ProofAnswer {
  accountProof: string[]
  storageProof?: { proof: string[] }[]
}

/** Keys tried, per nibble of the path, to find one whose keccak leads to a missing node (16^len on average). */
const SEARCH_LIMIT = 1 << 24
const PROGRESS_EVERY_MS = 5_000

/**
 * A fork's state (docs/FORK.md): the trie at any state root of this chain, where the parts the
 * fork has not touched are the origin's trie at the fork block N, fetched on first use. A key is
 * read by walking the local trie; when the walk meets a node that is not stored, the origin's
 * EIP-1186 proof of that key at N supplies every node on its path (content-addressed, so each is
 * checked by its hash), and the walk goes on. Values are never taken from the origin's JSON fields,
 * only from the trie that the header's state root commits to, so a fork never answers made-up state.
 * Nodes and code are stored for good (TrieDB.putFetched): a restart does not fetch them again.
 */
export class ForkState implements StateFetcher {
  private readonly inFlight = new Map<string, Promise<void>>()
  /** The origin's block hashes before N that BLOCKHASH asked for (it reaches 256 blocks back). */
  private readonly hashes = new BoundedCache<string, Uint8Array>(256)
  private readonly nodes: TrieNodes
  private readonly block: string
  private counts = { proofs: 0, codes: 0, nodes: 0 }
  private lastProgress = 0

  constructor(
    private readonly fork: Fork,
    private readonly trieDb: TrieDB,
    private readonly log: Logger,
  ) {
    this.nodes = { get: (hashHex) => trieDb.getSync(hashHex), put: (hashHex, node) => trieDb.putSync(hashHex, node) }
    this.block = `0x${fork.point.number.toString(16)}`
  }

  /** The origin (JSON-RPC client; `name` is safe to show). */
  get origin(): OriginClient {
    return this.fork.origin
  }

  /** The fork block N: number, hash, state root, the origin's chain ID. */
  get point(): ForkPoint {
    return this.fork.point
  }

  /** The hash of the origin's block `number` (< N): BLOCKHASH on the fork. */
  async blockHash(number: bigint): Promise<Uint8Array | undefined> {
    if (number >= this.fork.point.number) return undefined
    const key = number.toString()
    let hash = this.hashes.get(key)
    if (hash === undefined) {
      const block = await this.ask<{ hash?: string } | null>('eth_getBlockByNumber', [`0x${number.toString(16)}`, false])
      if (typeof block?.hash !== 'string') return undefined
      hash = hexToBytes(block.hash as `0x${string}`)
      this.hashes.set(key, hash)
    }
    return hash
  }

  async account(root: Uint8Array, address: Uint8Array): Promise<Uint8Array | null> {
    const key = keccak256(address)
    for (let tries = 0; ; tries++) {
      const found = trieLookup(this.nodes, root, key)
      if (!(found instanceof MissingTrieNodeError)) return found.value
      if (tries > 0) throw this.inconsistent(found, bytesToHex(address))
      await this.fetchProof(address, [])
    }
  }

  async slot(root: Uint8Array, address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    const rlp = await this.account(root, address)
    if (rlp === null) return new Uint8Array(0)
    const { storageRoot } = createAccountFromRLP(rlp)
    if (equalsBytes(storageRoot, KECCAK256_RLP)) return new Uint8Array(0)
    const key = keccak256(slot)
    for (let tries = 0; ; tries++) {
      const found = trieLookup(this.nodes, storageRoot, key)
      if (!(found instanceof MissingTrieNodeError)) return found.value === null ? new Uint8Array(0) : (RLP.decode(found.value) as Uint8Array)
      if (tries > 0) throw this.inconsistent(found, `${bytesToHex(address)} slot ${bytesToHex(slot)}`)
      await this.fetchProof(address, [slot])
    }
  }

  async code(address: Uint8Array, codeHash: Uint8Array): Promise<Uint8Array> {
    const key = codeKey(Buffer.from(codeHash).toString('hex'))
    const stored = this.trieDb.getSync(key)
    if (stored !== undefined) return stored
    await this.once(`code:${key}`, async () => {
      const hex = await this.ask<string>('eth_getCode', [bytesToHex(address), this.block])
      const code = hexToBytes(hex as `0x${string}`)
      if (!equalsBytes(keccak256(code), codeHash))
        throw new ForkError(`fork origin ${this.fork.origin.name} answered code for ${bytesToHex(address)} at block ${this.fork.point.number} whose hash is not the account's code hash`)
      await this.trieDb.putFetched([[key, code]])
      this.counts.codes++
    })
    return this.trieDb.getSync(key) ?? new Uint8Array(0)
  }

  /**
   * Fetches the origin's node that a change of the trie needs but that no read brought (a branch
   * left with one child folds into it, so that child's content is needed): the proof of a key whose
   * path runs through the node's position. Such a key is found by trying keys (about 16 per nibble of
   * the position). `address`: the account whose storage trie it is; undefined for the account trie.
   */
  async missing(err: MissingTrieNodeError, address: Uint8Array | undefined): Promise<void> {
    const size = address === undefined ? 20 : 32
    const limit = Math.min(SEARCH_LIMIT, 16 ** err.path.length * 64)
    const candidate = randomBytes(size)
    for (let i = 0; i < limit; i++) {
      candidate.writeUInt32BE(i, size - 4)
      if (!hasNibblePrefix(keccak256(candidate), err.path)) continue
      if (address === undefined) await this.fetchProof(candidate, [])
      else await this.fetchProof(address, [candidate])
      if (this.trieDb.getSync(err.hashHex) !== undefined) return
      throw this.inconsistent(err, address === undefined ? 'the account trie' : `the storage of ${bytesToHex(address)}`)
    }
    throw new ForkError(`fork: no key found leading to the origin's trie node ${err.hashHex} within ${limit} tries; it cannot be fetched from ${this.fork.origin.name}`)
  }

  /** Stores every node of the origin's proof of `address` (and `slots`) at the fork block. */
  private fetchProof(address: Uint8Array, slots: Uint8Array[]): Promise<void> {
    const id = `${bytesToHex(address)}:${slots.map((s) => bytesToHex(s)).join(',')}`
    return this.once(id, async () => {
      const answer = await this.ask<ProofAnswer>('eth_getProof', [bytesToHex(address), slots.map((s) => bytesToHex(s)), this.block])
      const hexNodes = [...(answer?.accountProof ?? []), ...(answer?.storageProof ?? []).flatMap((p) => p.proof)]
      const entries = hexNodes.map((hex) => {
        const node = hexToBytes(hex as `0x${string}`)
        return [Buffer.from(keccak256(node)).toString('hex'), node] as const
      })
      await this.trieDb.putFetched(entries)
      this.counts.proofs++
      this.counts.nodes += entries.length
      this.progress()
    })
  }

  /** One fetch per key at a time: concurrent readers of one account wait for the same answer. */
  private once(id: string, fetch: () => Promise<void>): Promise<void> {
    let p = this.inFlight.get(id)
    if (p === undefined) {
      p = fetch().finally(() => this.inFlight.delete(id))
      this.inFlight.set(id, p)
    }
    return p
  }

  /** A call to the origin; its JSON-RPC errors (a pruned state, an unknown method) name the origin and the fork block. */
  private async ask<T>(method: string, params: unknown[]): Promise<T> {
    try {
      return await this.fork.origin.call<T>(method, params)
    } catch (err) {
      if (err instanceof OriginRpcError) {
        throw new ForkError(`fork origin ${this.fork.origin.name} does not serve ${method} at block ${this.fork.point.number}: ${err.originMessage}`)
      }
      throw err
    }
  }

  private inconsistent(err: MissingTrieNodeError, what: string): ForkError {
    return new ForkError(
      `fork origin ${this.fork.origin.name}: its proof of ${what} at block ${this.fork.point.number} does not hold trie node ${err.hashHex} under the block's state root ${bytesToHex(this.fork.point.stateRoot)}`,
    )
  }

  private progress(): void {
    const now = Date.now()
    if (now - this.lastProgress < PROGRESS_EVERY_MS) return
    this.lastProgress = now
    this.log.info({ origin: this.fork.origin.name, block: Number(this.fork.point.number), ...this.counts }, 'fork: state fetched from the origin so far')
  }
}

/** Whether `hash`'s nibbles start with `prefix`, read in place (the search above tries up to millions of hashes). */
function hasNibblePrefix(hash: Uint8Array, prefix: Uint8Array): boolean {
  for (let i = 0; i < prefix.length; i++) {
    const byte = hash[i >> 1]!
    if ((i & 1 ? byte & 0x0f : byte >> 4) !== prefix[i]) return false
  }
  return true
}
