import { EventEmitter } from 'node:events'
import { paramsBlock, type Block as EnvBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { paramsTx } from '@ethereumjs/tx'
import { KECCAK256_RLP, ValueEncoding, bytesToHex, bytesToUnprefixedHex, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { sentWarpMessages, type WarpChain } from '../../warp/precompile.js'
import type { ChainOptions } from './chainOptions.js'
import { WarpMessageStore } from '../../store/warpMessageStore.js'
import { ChainStore } from '../../store/chainStore.js'
import type { BatchOp, Database } from '../../store/db.js'
import { TrieDB, codeKey } from '../../store/trieDb.js'
import { FlatState, type FlatChanges } from '../../store/flatState.js'
import { FlatView, type StateReader } from '../state/flatView.js'
import { flatEntries } from '../state/stateWriter.js'
import type { TrieNodes } from '../state/trieBatch.js'
import { SubnetEvmHead } from './subnetEvmHead.js'
import { keptRoots } from './keptRoots.js'
import { type Block, type LogBlock, encodeBlock } from './block.js'
import { ChainBlocks } from './chainBlocks.js'
import { genesisBlock } from './genesisBlock.js'
import { initGenesis } from './chainGenesis.js'
import { FEE_STATE_SIZE, decodeFeeState, desiredDelayExcess, genesisFeeState, type FeeState } from '../rules/feeState.js'
import { writeForkBase } from './forkBase.js'
import { ForkState } from '../state/forkState.js'
import { blockBloom, encodeReceipts, type Receipt } from './receipt.js'
import { type Execution, Executions, encodeExecution } from './settlement.js'
import { StateUnavailableError } from '../base/errors.js'
import { StatePruner } from '../state/statePruner.js'
import { packSenders } from './txMemo.js'
import { sharedCommon } from '../rules/sharedCommon.js'
import { chainCommon } from '../rules/chainCommon.js'
import { type BlockHashSource, type EnvFields, blockHashSource, envBlock } from './envBlock.js'

/** Fees are burned to coreth's BlackholeAddr (constants.BlackholeAddr): the block coinbase. */
export const BLACKHOLE = hexToBytes('0x0100000000000000000000000000000000000000')
/** coreth's EmptyExtDataHash = rlpHash(nil bytes). */
export const EMPTY_EXT_DATA_HASH = KECCAK256_RLP

/**
 * The canonical chain: blocks, receipts, indexes and state roots on LevelDB, the head, and
 * state managers at any kept root. Only the block builder appends (commit()).
 */
export class Chain {
  readonly events = new EventEmitter()
  readonly common: Common
  /**
   * The Common every transaction object shares. ethereumjs copies the Common and re-merges its
   * params in each transaction's constructor (about 0.3 ms each); this one is set up once and
   * hands out itself, so parsing a transaction costs only parsing.
   */
  readonly txCommon: Common
  /** Likewise for the EVM environment headers built per block and per call. */
  private readonly headerCommon: Common
  readonly chainId: bigint
  /** ChainOptions.warp */
  readonly warp: WarpChain | undefined
  /** The Warp messages accepted blocks sent. */
  readonly warpMessages: WarpMessageStore
  readonly store: ChainStore
  readonly trieDb: TrieDB
  /** The head's accounts and slots by key (src/store/flatState.ts): what reads and execution use. */
  readonly flat: FlatState
  head!: Block
  /** The head's state root: its own post-state's, or the root after development edits (anvil_setBalance and the like change the state without a block, as in anvil and hardhat). */
  headStateRoot!: Uint8Array
  genesisBlock!: Block
  /** Stored blocks and receipts, decoded once and cached, and where recently mined transactions are. */
  private readonly blocks: ChainBlocks
  /** Helicon: each block's own execution (post-state root, base fee, gas clock) and what settles when. */
  readonly executions: Executions
  /** A fork's state beyond what the flat state knows: the trie, with the origin's parts fetched (anvil_reset's `forking` sets another). */
  forkState: ForkState | undefined
  /** State garbage collection; only with `pruning-enabled`. */
  readonly pruner: StatePruner | undefined
  /** Blocks whose state a pruning node answers for (`state-history`); undefined on an archival node. */
  readonly stateHistory: bigint | undefined
  /** A subnet-evm chain's rules for the next block, kept as the head's state changes (headChanged). */
  readonly subnetEvm: SubnetEvmHead | undefined

  private constructor(
    readonly db: Database,
    readonly opts: ChainOptions,
  ) {
    this.chainId = BigInt(opts.genesis.config.chainId)
    this.warp = opts.warp
    this.common = chainCommon(this.chainId, opts.helicon)
    this.txCommon = sharedCommon(this.common, paramsTx)
    this.headerCommon = sharedCommon(this.common, paramsBlock)
    this.store = new ChainStore(db)
    this.blocks = new ChainBlocks(this.store, this.txCommon)
    this.trieDb = new TrieDB(db, opts.stateCache?.trie)
    this.flat = new FlatState(db, opts.stateCache?.flat)
    this.warpMessages = new WarpMessageStore(db)
    this.executions = new Executions(this)
    this.events.setMaxListeners(0)
    this.subnetEvm = opts.subnetEvm && new SubnetEvmHead(opts.subnetEvm)
    if (opts.fork !== undefined && opts.origin !== undefined) this.forkState = new ForkState({ origin: opts.origin, point: opts.fork }, this.trieDb, opts.log)
    if (opts.stateHistory !== undefined) {
      this.stateHistory = opts.stateHistory
      this.pruner = new StatePruner(this.trieDb, () => keptRoots(this), { log: opts.log })
    }
  }

  /** Opens the chain, writing the genesis block on first start and recovering a torn head (docs/SECURITY.md, D-b). */
  static async open(db: Database, opts: ChainOptions): Promise<Chain> {
    const chain = new Chain(db, opts)
    await chain.load()
    return chain
  }

  /** Reads the chain back from the database: on open, and after anvil_reset emptied it (store/resetDatabase.ts). */
  async load(): Promise<void> {
    this.blocks.forget()
    this.executions.forget()
    this.trieDb.forget()
    const storedGenesis = this.store.readGenesisHash()
    const { fork } = this.opts
    if (fork !== undefined) {
      // A reset removed the fork's first block: written again from the record, without the origin.
      if (storedGenesis === undefined) await writeForkBase(this.db, fork)
      this.flat.partial = true
      this.genesisBlock = this.blockByHash(fork.hash)!
    } else if (storedGenesis === undefined || this.genesisBlock === undefined || !equalsBytes(storedGenesis, this.genesisBlock.hash)) {
      const helicon = this.opts.helicon && this.opts.genesis.timestamp >= BigInt(this.opts.heliconTime ?? 0)
      this.genesisBlock = await initGenesis(this.store, this.trieDb, await genesisBlock(this.opts.genesis, this.newStateManager(), helicon, this.opts.subnetEvm), storedGenesis)
    }
    this.genesisBlock = this.blockByHash(this.genesisBlock.hash)!
    this.head = await this.recoverHead()
    this.headStateRoot = this.store.readHeadState(this.head.hash) ?? this.postStateRoot(this.head)
    await this.openFlat()
    await this.headChanged()
  }

  /** The head's state changed (a block, a revert, an edit): what follows from it is read again. */
  async headChanged(): Promise<void> {
    await this.subnetEvm?.refresh(this.headView(), this.head.header.timestamp)
  }

  /**
   * evm_revert put back `restored` (store/snapshotJournal.ts): the head and what the chain keeps in
   * memory follow those keys only (blocks above the new head go, the flat state reads the keys put
   * back again), so a revert costs what changed since its snapshot. Trie nodes are named by their
   * content and stay; the genesis is the one checked at open.
   */
  async afterRevert(restored: readonly Uint8Array[]): Promise<void> {
    this.trieDb.forgetPending()
    this.head = await this.recoverHead()
    this.blocks.dropAbove(this.head.header.number)
    this.executions.forget()
    this.headStateRoot = this.store.readHeadState(this.head.hash) ?? this.postStateRoot(this.head)
    const stored = this.flat.storedRoot()
    if (stored !== undefined && equalsBytes(stored, this.headStateRoot)) this.flat.afterRevert(this.head.header.number, restored)
    else await this.openFlat()
    await this.headChanged()
  }

  /** Uses the stored flat state if it holds the head's root, else rebuilds it from the trie. */
  private async openFlat(): Promise<void> {
    const { number } = this.head.header
    const stateRoot = this.headStateRoot
    const stored = this.flat.storedRoot()
    if (stored !== undefined && equalsBytes(stored, stateRoot)) return this.flat.openAt(number)
    // A fork's trie is partly the origin's, not walkable whole: its flat state starts again empty (reads go to the trie).
    if (this.flat.partial) return this.flat.restartEmpty(stateRoot, number)
    const accounts = await this.flat.rebuild(stateRoot, number, flatEntries(this.trieNodes, stateRoot))
    this.opts.log.info({ accounts, number: Number(number) }, 'flat state rebuilt from the trie')
  }

  /**
   * The state of a block to read or execute on: the flat state for the head and the blocks its
   * undo layers cover, the trie for older ones (docs/ARCHITECTURE.md, "Where state lives").
   */
  stateReader(block: Block, trie: () => StateReader = () => this.newStateManager(this.stateRootOf(block))): StateReader {
    const { number } = block.header
    const fetch = this.forkState && { fetcher: this.forkState, root: () => this.stateRootOf(block) }
    return this.flat.covers(number) ? new FlatView(this.flat, this.codeSource, number, trie, fetch) : trie()
  }

  /** The head's state as it moves (block building): never pinned to one block. */
  headView(): FlatView {
    return new FlatView(this.flat, this.codeSource, undefined, undefined, this.forkState && { fetcher: this.forkState, root: () => this.headStateRoot })
  }

  /** Contract code by hash, from the trie's database (content-addressed: any block's code). */
  readonly codeSource = (codeHash: Uint8Array): Uint8Array | undefined => this.trieDb.getSync(codeKey(bytesToUnprefixedHex(codeHash)))

  /** The trie's nodes for src/engine/state/trieBatch.ts: read through the TrieDB's caches, new ones pending until the block's batch. */
  readonly trieNodes: TrieNodes = {
    get: (hashHex) => this.trieDb.getSync(hashHex),
    put: (hashHex, node) => this.trieDb.putSync(hashHex, node),
  }

  /** Walks back from the stored head to the newest block whose parent links and state are whole. */
  private async recoverHead(): Promise<Block> {
    const headHash = this.store.readHeadHash()!
    let block = this.blockByHash(headHash)
    let walked = 0
    while (block !== undefined && block.header.number > this.genesisBlock.header.number && !this.isWhole(block)) {
      block = this.blockByHash(block.header.parentHash)
      walked++
    }
    if (block === undefined) throw new Error('chain database is corrupt: head block missing')
    if (walked > 0) {
      this.opts.log.warn({ number: Number(block.header.number), dropped: walked }, 'head was torn; fell back to the last whole block')
      await this.store.writeHead(block.hash)
    }
    return block
  }

  private isWhole(block: Block): boolean {
    const canonical = this.store.readCanonicalHash(block.header.number)
    return canonical !== undefined && bytesToHex(canonical) === bytesToHex(block.hash) && this.store.hasStateNode(this.postStateRoot(block)) && this.store.readReceipts(block.hash) !== undefined
  }

  /** A state manager over the node's trie (caches on: without them trie lookups dominate and blocks run about 2.6x slower, measured here). */
  newStateManager(root?: Uint8Array): MerkleStateManager {
    // A fork fetches the origin's nodes as reads need them (src/engine/state/forkState.ts): its root may not be stored yet.
    if (root !== undefined && !equalsBytes(root, KECCAK256_RLP) && this.forkState === undefined && this.trieDb.getSync(bytesToUnprefixedHex(root)) === undefined) {
      throw StateUnavailableError.of(root)
    }
    return new MerkleStateManager({ common: this.common, trie: this.trie(root), caches: new Caches() })
  }

  /** The state trie at a root, over the node's trie database. */
  private trie(root?: Uint8Array): MerklePatriciaTrie {
    return new MerklePatriciaTrie({ db: this.trieDb, useKeyHashing: true, common: this.common, valueEncoding: ValueEncoding.Bytes, root })
  }

  /** Fee state after a block (ACP-176, its extraData prefix); a dev chain starts at its configured target. */
  feeStateOf(block: Block): FeeState {
    // A fork's first block holds a fee state only if the origin is a C-Chain (an Ethereum node's extraData is not one).
    const { header } = block
    const first = header.number === 0n || (this.isForkBase(block) && (header.extraData.length < FEE_STATE_SIZE || equalsBytes(header.extDataHash, new Uint8Array(32))))
    return first ? genesisFeeState(this.opts.gasTarget) : decodeFeeState(header.extraData)
  }

  /** The minimum-delay excess a child of this block starts from (ACP-226). */
  delayExcessOf(block: Block): bigint {
    if (block.header.number === 0n || (this.isForkBase(block) && block.header.minDelayExcess === 0n)) return desiredDelayExcess(BigInt(this.opts.minDelayTarget))
    return block.header.minDelayExcess
  }

  /** Whether this is a fork's first block: the origin's block N. */
  isForkBase(block: Block): boolean {
    return this.opts.fork !== undefined && block.header.number === this.opts.fork.number
  }

  blockByHash(hash: Uint8Array): Block | undefined {
    return this.blocks.blockByHash(hash)
  }

  blockByNumber(number: bigint): Block | undefined {
    if (number > this.head.header.number) return undefined
    if (number === this.head.header.number) return this.head
    const hash = this.store.readCanonicalHash(number)
    return hash === undefined ? undefined : this.blockByHash(hash)
  }

  /** The canonical block's header and transactions' hashes, read lightly (ChainBlocks.logBlock). */
  logBlockByNumber(number: bigint): { block: LogBlock; txHashes: readonly Uint8Array[] } | undefined {
    if (number > this.head.header.number) return undefined
    if (number === this.head.header.number) return { block: this.head, txHashes: this.head.txs.map((tx) => tx.hash()) }
    const hash = this.store.readCanonicalHash(number)
    return hash === undefined ? undefined : this.blocks.logBlock(hash)
  }

  /** Whether the block is on the canonical chain (it always is here: there are no reorgs). */
  isCanonical(block: Block): boolean {
    const hash = this.store.readCanonicalHash(block.header.number)
    return hash !== undefined && bytesToHex(hash) === bytesToHex(block.hash) && block.header.number <= this.head.header.number
  }

  receipts(block: Pick<Block, 'hash'>): Receipt[] {
    return this.blocks.receipts(block)
  }

  /** The canonical block and index of a mined transaction; one in `pooled` (the tx pool) and not recently mined is not mined yet (it leaves the pool after its block). */
  txLocation(txHash: Uint8Array, pooled?: (hashHex: string) => boolean): { block: Block; index: number } | undefined {
    const recent = this.blocks.recentTx(txHash)
    if (recent !== undefined) return recent
    if (pooled?.(bytesToHex(txHash)) === true) return undefined
    const loc = this.store.readTxLocation(txHash)
    if (loc === undefined || loc.blockNumber > this.head.header.number) return undefined
    const block = this.blockByNumber(loc.blockNumber)
    return block === undefined ? undefined : { block, index: loc.index }
  }

  /** The EVM's environment block for a header (BLOCKHASH, NUMBER, BASEFEE...). */
  envBlock(fields: EnvFields): EnvBlock {
    return envBlock(this.headerCommon, { ...fields, coinbase: fields.coinbase ?? BLACKHOLE })
  }

  /** BLOCKHASH source for the EVM: canonical hashes by number. */
  readonly blockHashes: BlockHashSource = blockHashSource(this)

  /**
   * Appends a block: one atomic write with its state, receipts, indexes, the head pointer and
   * `extraOps` (what its atomic txs change: shared memory, the accepted-tx repository). `pause`
   * (the block builder's pacer) lets requests run while a big block is encoded and its batch built.
   */
  async commit(block: Block, receipts: Receipt[], extraOps: readonly BatchOp[], flat: FlatChanges, pause: () => Promise<void> = async () => {}, execution?: Execution): Promise<void> {
    // A Helicon header holds the last settled block's root: the block's own is its execution's.
    const root = execution?.root ?? block.header.stateRoot
    const staged = await this.flat.stage(flat, block.header.number, root)
    const trieOps = this.trieDb.drain()
    // eth_getLogs filters by the block's own logs (a Helicon header's bloom is of the receipts it settles).
    const bloom = execution === undefined ? block.header.bloom : blockBloom(receipts)
    try {
      await pause()
      const encodedBlock = encodeBlock(block.header, block.txs, block.extData)
      await pause()
      const encodedReceipts = encodeReceipts(receipts)
      await pause()
      await this.store.writeBlock(
        {
          hash: block.hash,
          number: block.header.number,
          encodedBlock,
          encodedReceipts,
          bloom,
          txHashes: block.txs.map((tx) => tx.hash()),
          senders: packSenders(block.txs),
          stateOps: [...trieOps, ...staged.ops],
          extraOps: [...extraOps, ...(execution === undefined ? [] : [this.store.executionOp(block.hash, encodeExecution(execution))]), ...this.warpMessageOps(block, receipts)],
        },
        { pause },
      )
    } catch (err) {
      this.flat.unstage(staged)
      throw err
    }
    this.trieDb.commitDrained(trieOps)
    this.blocks.record(block, receipts)
    if (execution !== undefined) this.executions.remember(bytesToHex(block.hash), execution)
    this.head = block
    this.headStateRoot = root
    await this.headChanged()
    this.events.emit('head', block, receipts, bloom)
    // Between blocks, with nothing pending: the one point where state garbage collection is safe.
    if (this.pruner !== undefined) await this.pruner.afterCommit(trieOps.reduce((n, op) => n + (op.type === 'put' ? op.value.length : 0), 0))
  }

  /** The Warp messages the block sends, stored by ID with it (warp_getMessage, signing). */
  private warpMessageOps(block: Block, receipts: readonly Receipt[]): BatchOp[] {
    if (this.warp === undefined) return []
    return receipts.flatMap((r) => sentWarpMessages(r.logs).map((m) => this.warpMessages.putOp(m.id, block.header.number, m.unsigned)))
  }

  /** The state root a block's state is read at: its own post-state, or for the head the one after development edits. */
  stateRootOf(block: Block): Uint8Array {
    return equalsBytes(block.hash, this.head.hash) ? this.headStateRoot : this.postStateRoot(block)
  }

  /** A block's own post-state root: its execution's under Helicon, else its header's (a fork's first block: the origin's). */
  postStateRoot(block: Block): Uint8Array {
    return this.executions.rootOf(block)
  }

  /** `safe` and `finalized` under Helicon: the last block the head settles (the head before it). */
  lastSettled(): Block {
    return this.blockByNumber(this.executions.settledHeightOf(this.head))!
  }

  /**
   * Throws coreth's error for a block whose state a pruning node no longer answers for: only the
   * last `state-history` blocks' states are kept (head-31..head by default), as coreth's tip buffer.
   */
  requireState(block: Block): void {
    if (this.stateHistory !== undefined && block.header.number + this.stateHistory <= this.head.header.number) {
      throw StateUnavailableError.of(this.postStateRoot(block))
    }
  }
}
