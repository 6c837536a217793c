import type { Block as EnvBlock } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import { type Address, bytesToHex } from '@ethereumjs/util'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import { InvalidTransactionError, type EvmTransactionResult } from '../../evm/runTransaction.js'
import type { EvmHost } from '../../evm/types.js'
import { ForkError } from '../../fork/errors.js'
import type { Log } from '../chain/receipt.js'
import type { OverlayState } from '../state/overlayState.js'
import type { OwnEvm } from './ownEvm.js'
import type { WarpChain } from '../../warp/precompile.js'
import { chainPrecompiles, runBlockTxWithPredicates, type WarpTx, warpTxOf } from './warpPrecompile.js'

/** What a block takes of a transaction's run, whichever EVM ran it. */
export interface BlockTxOutcome {
  /** The receipt's gasUsed (runTx's totalGasSpent). */
  gasUsed: bigint
  /** The coinbase's credit (runTx's minerValue). */
  minerValue: bigint
  /** The EVM's error name when the transaction failed (status 0). */
  error?: string
  returnData: Uint8Array
  logs: Log[]
  /** A creation's address. */
  createdAddress?: Uint8Array
  /** The logs' bloom, when the EVM made it already (ethereumjs does). */
  bloom?: Uint8Array
  /** The transaction's Warp predicate results (bit i = predicate i failed), when it has predicates: the header carries them. */
  predicateResults?: Uint8Array
}

/**
 * Runs a block's transactions on its state (`sm`, which they write): on the node's interpreter where
 * it serves the transaction (decided before it runs: OwnEvm.servesTx), else on ethereumjs's runTx.
 * With the oracle on, ethereumjs runs every served one too: its writes are the block's, the
 * interpreter's are compared with them (a difference is logged and counted, OwnEvm.record).
 */
export class BlockTxRunner {
  constructor(
    private readonly vm: VM,
    private readonly sm: OverlayState,
    private readonly own: OwnEvm | undefined,
    private readonly host: EvmHost,
    /** The chain's identity to Warp: its transactions' predicates are verified and priced (exec/warpPrecompile.ts). */
    private readonly warp: WarpChain | undefined,
  ) {}

  /**
   * Runs `tx` (from `sender`) after `blockGasUsed` gas of the block; throws, having written nothing,
   * for a transaction the block cannot take (a Warp predicate that does not parse among them).
   */
  async run(tx: TypedTransaction, sender: Address, env: EnvBlock, blockGasUsed: bigint): Promise<BlockTxOutcome> {
    const warpTx = warpTxOf(this.warp, tx)
    const outcome = await this.runWith(tx, sender, env, blockGasUsed, warpTx)
    return warpTx === undefined ? outcome : { ...outcome, predicateResults: warpTx.context.results }
  }

  private async runWith(tx: TypedTransaction, sender: Address, env: EnvBlock, blockGasUsed: bigint, warpTx: WarpTx | undefined): Promise<BlockTxOutcome> {
    const own = this.own
    if (own === undefined || !own.servesTx(tx)) return this.ethereumjs(tx, env, blockGasUsed, warpTx)
    let ours: EvmTransactionResult | InvalidTransactionError
    try {
      ours = await own.transaction(this.sm, this.host, tx, sender, env, warpTx && { precompiles: chainPrecompiles(this.warp, warpTx.context), intrinsicGasAdjustment: warpTx.gasAdjustment })
    } catch (err) {
      // A state the node cannot read stops the block; a refusal is the answer (the oracle checks ethereumjs refuses it too); anything else is the interpreter's fault.
      if (err instanceof ForkError) throw err
      if (!(err instanceof InvalidTransactionError)) {
        own.failed(err, () => describeTx(tx))
        return this.ethereumjs(tx, env, blockGasUsed, warpTx)
      }
      if (!own.oracle) throw err
      ours = err
    }
    own.counts.served++
    if (!own.oracle) {
      this.sm.apply((ours as EvmTransactionResult).changes)
      return fromOurs(ours as EvmTransactionResult)
    }
    return this.checked(ours, tx, env, blockGasUsed, warpTx)
  }

  /** The oracle: ethereumjs runs the transaction, its writes are undone to read the state both ran on, compared, then written. */
  private async checked(ours: EvmTransactionResult | InvalidTransactionError, tx: TypedTransaction, env: EnvBlock, blockGasUsed: bigint, warpTx: WarpTx | undefined): Promise<BlockTxOutcome> {
    const own = this.own!
    const what = () => describeTx(tx)
    await this.sm.checkpoint()
    const mark = this.sm.mark()
    let theirs: RunTxResult
    let changes: ReturnType<OverlayState['changesSince']>
    try {
      theirs = await this.runTx(tx, env, blockGasUsed, warpTx)
      changes = this.sm.changesSince(mark)
    } catch (err) {
      if (!(err instanceof ForkError)) own.record(ours instanceof InvalidTransactionError ? [] : [`validity: ours ran it, theirs refused it: ${(err as Error).message}`], what)
      throw err
    } finally {
      await this.sm.revert()
    }
    if (ours instanceof InvalidTransactionError) {
      own.record([`validity: ours refused it (${ours.message}), theirs ran it`], what)
    } else {
      const also: string[] = []
      if (ours.gasUsed !== theirs.totalGasSpent) also.push(`gasUsed: ours ${ours.gasUsed}, theirs ${theirs.totalGasSpent}`)
      if (ours.minerValue !== theirs.minerValue) also.push(`minerValue: ours ${ours.minerValue}, theirs ${theirs.minerValue}`)
      await own.compare({ ...ours.message, changes: ours.changes }, theirs, changes, this.sm, what, also)
    }
    this.sm.apply(changes)
    return fromRunTx(theirs)
  }

  private async ethereumjs(tx: TypedTransaction, env: EnvBlock, blockGasUsed: bigint, warpTx: WarpTx | undefined): Promise<BlockTxOutcome> {
    return fromRunTx(await this.runTx(tx, env, blockGasUsed, warpTx))
  }

  /** ethereumjs's runTx, with the transaction's predicates priced and readable by its Warp precompile. */
  private runTx(tx: TypedTransaction, env: EnvBlock, blockGasUsed: bigint, warpTx: WarpTx | undefined): Promise<RunTxResult> {
    return runBlockTxWithPredicates(this.vm, warpTx, { tx, block: env, skipHardForkValidation: true, blockGasUsed })
  }
}

function fromRunTx(r: RunTxResult): BlockTxOutcome {
  const exec = r.execResult
  return {
    gasUsed: r.totalGasSpent,
    minerValue: r.minerValue,
    error: exec.exceptionError?.error,
    returnData: exec.returnValue,
    logs: (exec.logs ?? []).map(([address, topics, data]): Log => ({ address, topics, data })),
    createdAddress: r.createdAddress?.bytes,
    bloom: r.bloom.bitvector,
  }
}

function fromOurs(r: EvmTransactionResult): BlockTxOutcome {
  return {
    gasUsed: r.gasUsed,
    minerValue: r.minerValue,
    error: r.error,
    returnData: r.message.returnData,
    logs: r.logs,
    createdAddress: r.message.createdAddress,
  }
}

function describeTx(tx: TypedTransaction): string {
  return `transaction ${bytesToHex(tx.hash())}`
}
