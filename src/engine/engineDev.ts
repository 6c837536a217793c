import { KECCAK256_NULL, createAccountFromRLP, equalsBytes } from '@ethereumjs/util'
import type { Block } from './chain/block.js'
import type { BlockBuilder } from './mining/blockBuilder.js'
import type { BlockClock } from './rules/blockClock.js'
import type { BlockOverrides } from './chain/blockOverrides.js'
import type { Chain } from './chain/chain.js'
import { genesisPreimages } from './chain/genesisBlock.js'
import type { Fork } from './state/forkPoint.js'
import { ForkState } from './state/forkState.js'
import { OverlayState } from './state/overlayState.js'
import { writeChanges } from './state/stateWriter.js'
import type { TxPool } from './pool/txPool.js'

/** One account of the head's state, named (anvil_dumpState). */
export interface DumpedAccount {
  address: Uint8Array
  nonce: bigint
  balance: bigint
  code: Uint8Array
  /** slot -> value (leading zeros stripped), in the flat state's order */
  storage: [Uint8Array, Uint8Array][]
}

/**
 * What the development controls (src/dev/) reach inside the engine: block building held while
 * they work, edits of the head's state without a block, the pool, and a reload of everything from
 * the database after a revert or reset put it back.
 */
export class EngineDev {
  constructor(
    private readonly chain: Chain,
    readonly pool: TxPool,
    readonly builder: BlockBuilder,
  ) {}

  /** The time of the next blocks (evm_increaseTime and the like). */
  get clock(): BlockClock {
    return this.builder.clock
  }

  /** Header fields of the next blocks (anvil_setCoinbase and the like). */
  get overrides(): BlockOverrides {
    return this.builder.overrides
  }

  /** Mines one block now, whatever the mining mode, with the executable transactions that fit (evm_mine). Call it inside exclusive(). */
  async mineOne(): Promise<Block> {
    const block = await this.builder.buildOnce(true, true)
    if (block === undefined) throw new Error('no block was built')
    return block
  }

  /** Runs `fn` with no block being built meanwhile. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.builder.exclusive(fn)
  }

  /**
   * Edits the head's state as anvil_setBalance and the like do: `edit` writes on an overlay of the
   * head's state, and its changes land in one atomic write with the new root (Chain.stateRootOf reads it).
   * Call it inside exclusive().
   */
  async editHeadState(edit: (state: OverlayState) => Promise<void>): Promise<void> {
    const { chain } = this
    const state = new OverlayState(chain.headView(), chain.codeSource)
    await edit(state)
    const head = chain.head
    const { root, flat } = await writeChanges(chain.trieNodes, chain.headStateRoot, (addrHash) => chain.flat.account(addrHash), state.changes(), undefined, chain.forkState)
    const staged = await chain.flat.stage(flat, head.header.number, root)
    const trieOps = chain.trieDb.drain()
    try {
      await chain.store.writeHeadState(head.hash, root, [...trieOps, ...staged.ops])
    } catch (err) {
      chain.flat.unstage(staged, true)
      throw err
    }
    chain.trieDb.commitDrained(trieOps)
    chain.headStateRoot = root
    await chain.headChanged()
    chain.events.emit('state')
  }

  /**
   * Every account of the head's state with its code and slots, named by the preimages recorded as
   * they were created (store/flatState.ts) or by the genesis allocation; `unnamed` counts the keys
   * with neither (written by a version that recorded none). Call it inside exclusive().
   */
  async dumpAccounts(): Promise<{ accounts: DumpedAccount[]; unnamed: number }> {
    const { flat } = this.chain
    const genesis = genesisPreimages(this.chain.opts.genesis)
    const name = (hash: string) => genesis.get(hash) ?? flat.preimage(hash)
    const accounts: DumpedAccount[] = []
    let unnamed = 0
    for await (const entry of flat.entries()) {
      const storage: [Uint8Array, Uint8Array][] = []
      for (const [slotHash, value] of entry.slots) {
        const slot = name(slotHash)
        if (slot === undefined) unnamed++
        else storage.push([slot, value])
      }
      const address = name(entry.addrHash)
      if (address === undefined) {
        unnamed++
        continue
      }
      const { nonce, balance, codeHash } = createAccountFromRLP(entry.account)
      const code = equalsBytes(codeHash, KECCAK256_NULL) ? new Uint8Array() : (this.chain.codeSource(codeHash) ?? new Uint8Array())
      accounts.push({ address, nonce, balance, code, storage })
    }
    return { accounts, unnamed }
  }

  /** Makes the chain a fork of `fork` (anvil_reset's `forking`): call it inside exclusive(), between the reset and reload(). */
  refork(fork: Fork): void {
    const { chain } = this
    chain.opts.fork = fork.point
    chain.forkState = new ForkState(fork, chain.trieDb, chain.opts.log)
  }

  /** The database was put back (a revert: the keys it put back, `restored`; or a reset): read the chain again; the pool starts empty. Call it inside exclusive(). */
  async reload(restored?: readonly Uint8Array[]): Promise<void> {
    if (restored === undefined) await this.chain.load()
    else await this.chain.afterRevert(restored)
    this.pool.clear()
    this.builder.settleAll()
    this.chain.events.emit('state')
  }
}
