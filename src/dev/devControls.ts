import type { Logger } from 'pino'
import type { AtomicTxService } from '../atomic/atomicService.js'
import type { Engine } from '../engine/engine.js'
import type { Database } from '../store/db.js'
import { resetDatabase } from '../store/resetDatabase.js'
import { SnapshotJournal } from '../store/snapshotJournal.js'
import { InvalidParamsError } from '../engine/base/errors.js'
import { fetchForkRecord } from '../engine/chain/forkBase.js'
import type { Fork } from '../engine/state/forkPoint.js'
import { OriginClient } from '../fork/originClient.js'
import { DevError } from './errors.js'

/** In-memory state a snapshot keeps beside the database (the clock, the mining mode): JSON in, JSON out. */
export interface SnapshotPart {
  save(): unknown
  /** `undefined`: back to the start-up state (a reset, or a snapshot taken before the part existed). */
  restore(saved: unknown): void
}

/**
 * Snapshots of the whole node on one database (evm_snapshot, evm_revert, anvil_reset): the EVM
 * chain, its atomic txs and shared memory, and on the C-Chain the X and P ledgers, all undone
 * together (src/store/snapshotJournal.ts), then read back into memory. Block building is held
 * meanwhile. What a snapshot covers is listed in docs/DEV.md.
 */
export class DevControls {
  private readonly parts = new Map<string, SnapshotPart>()
  private readonly reloaders: ((restored?: readonly Uint8Array[]) => Promise<void>)[] = []

  private constructor(
    private readonly db: Database,
    private readonly journal: SnapshotJournal,
    private readonly engine: Engine,
    private readonly atomic: AtomicTxService,
    private readonly log: Logger,
  ) {}

  static async open(deps: { db: Database; engine: Engine; atomic: AtomicTxService; log: Logger }): Promise<DevControls> {
    return new DevControls(deps.db, await SnapshotJournal.of(deps.db), deps.engine, deps.atomic, deps.log)
  }

  /** Keeps a part of the in-memory state with every snapshot, under `name`. */
  addPart(name: string, part: SnapshotPart): void {
    this.parts.set(name, part)
  }

  /** Something else on this database that must read itself again after a revert (the keys it put back: `restored`) or a reset (undefined): the X and P ledgers. */
  onReload(reload: (restored?: readonly Uint8Array[]) => Promise<void>): void {
    this.reloaders.push(reload)
  }

  /** The live snapshots, oldest first, with what each part saved at the time (anvil_metadata lists them). */
  liveSnapshots(): { id: bigint; saved: Record<string, unknown> }[] {
    return this.journal.live().map((s) => ({ id: s.id, saved: JSON.parse(new TextDecoder().decode(s.extra)) as Record<string, unknown> }))
  }

  /** evm_snapshot: the id of a snapshot of the node as it is now. */
  snapshot(): Promise<bigint> {
    return this.engine.dev.exclusive(() => {
      const saved = Object.fromEntries([...this.parts].map(([name, part]) => [name, part.save()]))
      return this.journal.take(new TextEncoder().encode(JSON.stringify(saved)))
    })
  }

  /** evm_revert: back to snapshot `id`, which is used up with every later one; false for an unknown or used-up id. */
  revert(id: bigint): Promise<boolean> {
    return this.engine.dev.exclusive(async () => {
      const snap = await this.journal.revert(id)
      if (snap === undefined) return false
      await this.reload(snap.restored)
      const saved = JSON.parse(new TextDecoder().decode(snap.extra)) as Record<string, unknown>
      for (const [name, part] of this.parts) part.restore(saved[name])
      this.log.info({ id: Number(id), head: Number(this.engine.head.header.number) }, 'reverted to snapshot')
      return true
    })
  }

  /**
   * anvil_reset: back to the genesis, or on a fork to its fork block (the keystore stays), every
   * snapshot gone. `refork`: fork again from that origin and block (anvil_reset's `forking`).
   */
  reset(refork?: Fork): Promise<void> {
    return this.engine.dev.exclusive(async () => {
      await this.journal.reset(() => resetDatabase(this.db, refork !== undefined || this.engine.fork !== undefined))
      if (refork !== undefined) this.engine.dev.refork(refork)
      await this.reload()
      for (const part of this.parts.values()) part.restore(undefined)
      const fork = this.engine.fork
      this.log.info(fork === undefined ? {} : { origin: fork.origin.name, block: Number(fork.point.number) }, fork === undefined ? 'reset to the genesis' : 'reset to the fork block')
    })
  }

  /**
   * anvil_reset with `forking`: the fork block of `url` (this fork's origin when undefined) at
   * `blockNumber` (the origin's latest when undefined), fetched before anything is reset. The chain
   * ID is fixed at start, so the origin must have this chain's.
   */
  async fork(url: string | undefined, blockNumber: bigint | undefined): Promise<void> {
    const origin = url === undefined ? this.engine.fork?.origin : new OriginClient({ url, log: this.log.child({ module: 'fork' }) })
    if (origin === undefined) throw new InvalidParamsError('Forking not enabled and RPC URL not provided to start forking')
    const point = await fetchForkRecord(origin, blockNumber)
    if (point.chainId !== this.engine.chainId) {
      throw new DevError(`the origin's chain ID ${point.chainId} is not this chain's ${this.engine.chainId}: start the node with --fork-url to fork another chain`)
    }
    await this.reset({ origin, point })
  }

  /** After a revert (the keys it put back: `restored`), or a reset (undefined). */
  private async reload(restored?: readonly Uint8Array[]): Promise<void> {
    await this.engine.dev.reload(restored)
    await this.atomic.reload(restored)
    for (const reload of this.reloaders) await reload(restored)
  }
}
