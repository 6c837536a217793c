/**
 * The atomic-tx service: admission at the tip into the atomic mempool, block inclusion for the
 * engine's builder (coreth: plugin/evm/atomic/vm/vm.go verifyTxAtTip, postBatchOnFinalizeAndAssemble,
 * onExtraStateChange), statuses (plugin/evm/atomic/vm/api.go), and shared memory's UTXO listings.
 */
import type { Logger } from 'pino'
import type { AtomicBatch, AtomicBlockSource } from '../engine/mining/blockBuilder.js'
import type { Engine } from '../engine/engine.js'
import type { AtomicTxStore } from '../store/atomicTxStore.js'
import { type SharedMemory, type SharedRequests, SharedMemoryError } from '../store/sharedMemory.js'
import type { StateManagerInterface } from '@ethereumjs/common'
import { decodeUTXO, encodeUTXO, utxoInputID } from '../avalanche/avax.js'
import { TYPE_ID } from '../avalanche/codec.js'
import { AlreadyKnownError, AtomicError } from './errors.js'
import { gasUsed } from './fees.js'
import { AtomicMempool } from './mempool.js'
import type { OriginUTXOs } from './originUTXOs.js'
import { NETWORKS, networkByID } from '../avalanche/networks.js'
import { checkEVMStateTransfer, evmStateTransfer, semanticVerify } from './semantic.js'
import type { AtomicService, AtomicStatus, GetExportedUTXOsQuery, GetUTXOsQuery, GetUTXOsResult } from './service.js'
import { type AtomicTx, encodeAtomicTxBatch, parseTx } from './tx.js'
import { type VerifyContext, inputUTXOs } from './verify.js'
import { unixNow } from '../util/unixNow.js'

/** targetAtomicTxsSize: signed bytes per block, and the largest tx the mempool takes (40 KiB). */
export const TARGET_ATOMIC_TXS_SIZE = 40 * 1024
/** maxAtomicTxMempoolGas (ap5.AtomicGasLimit). */
export const MAX_ATOMIC_TX_MEMPOOL_GAS = 100_000n

export interface AtomicServiceOptions {
  networkID: number
  /** the C-Chain's blockchain ID (32 bytes) */
  chainID: Uint8Array
  /** Chains of the same subnet it may import from and export to (default X and P; none for an extra EVM chain). */
  peerChainIDs?: readonly Uint8Array[]
  mempoolSize?: number
}

export interface AtomicServiceDeps {
  engine: Engine
  sharedMemory: SharedMemory
  txStore: AtomicTxStore
  log: Logger
  /** A fork's origin's atomic UTXOs, fetched into shared memory before a listing or an import needs them. */
  originUTXOs?: OriginUTXOs
}

const ZERO_ADDRESS = new Uint8Array(20)
const ZERO_ID = new Uint8Array(32)
const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')

/** AtomicService over the engine, the atomic mempool and the store; also the builder's atomic source. */
export class AtomicTxService implements AtomicService, AtomicBlockSource {
  readonly mempool: AtomicMempool
  readonly ctx: VerifyContext

  constructor(
    opts: AtomicServiceOptions,
    private readonly deps: AtomicServiceDeps,
  ) {
    const network = networkByID(opts.networkID) ?? NETWORKS.local
    this.ctx = {
      networkID: opts.networkID,
      chainID: opts.chainID,
      xChainID: network.xChainID,
      avaxAssetID: network.avaxAssetID,
      ...(opts.peerChainIDs !== undefined && { peerChainIDs: opts.peerChainIDs }),
    }
    this.mempool = new AtomicMempool({
      avaxAssetID: this.ctx.avaxAssetID,
      verify: (tx) => this.verifyTxAtTip(tx),
      ...(opts.mempoolSize !== undefined && { maxSize: opts.mempoolSize }),
    })
  }

  async issueTx(signedBytes: Uint8Array, parsed?: AtomicTx): Promise<Uint8Array> {
    let tx: AtomicTx
    try {
      tx = parsed ?? parseTx(signedBytes)
    } catch (err) {
      throw new AtomicError(`problem parsing transaction: ${(err as Error).message}`)
    }
    const utx = tx.tx.unsignedTx
    if (utx.typeID === TYPE_ID.ImportTx) await this.deps.originUTXOs?.fetchForImport(tx, utx)
    try {
      await this.mempool.addLocalTx(tx)
    } catch (err) {
      if (!(err instanceof AlreadyKnownError)) throw err
    }
    this.deps.engine.wakeBuilder()
    return tx.id
  }

  /** The database was put back (a revert or reset): no tx waits, shared memory reads again (after a revert, if it put back any of its records: `restored`). */
  async reload(restored?: readonly Uint8Array[]): Promise<void> {
    this.mempool.clear()
    if (restored === undefined || this.deps.sharedMemory.holdsAny(restored)) await this.deps.sharedMemory.load()
  }

  status(txID: Uint8Array): { status: AtomicStatus; blockHeight?: bigint } {
    const found = this.lookup(txID)
    if (found === undefined) return { status: 'Unknown' }
    return found.blockHeight === undefined ? { status: found.status } : { status: found.status, blockHeight: found.blockHeight }
  }

  getTx(txID: Uint8Array): { tx: Uint8Array; status: AtomicStatus; blockHeight?: bigint } | undefined {
    return this.lookup(txID)
  }

  /** vm.GetAtomicTx: the accepted repository first (Processing while above the head), then the mempool. */
  private lookup(txID: Uint8Array): { tx: Uint8Array; status: AtomicStatus; blockHeight?: bigint } | undefined {
    const stored = this.deps.txStore.get(txID)
    if (stored !== undefined) {
      if (stored.height > this.deps.engine.head.header.number) return { tx: stored.signedBytes, status: 'Processing' }
      return { tx: stored.signedBytes, status: 'Accepted', blockHeight: stored.height }
    }
    const pooled = this.mempool.getTx(txID)
    if (pooled === undefined) return undefined
    return { tx: pooled.tx.signedBytes, status: pooled.discarded ? 'Dropped' : 'Processing' }
  }

  async getUTXOs(q: GetUTXOsQuery): Promise<GetUTXOsResult> {
    await this.deps.originUTXOs?.fetch(q.addresses, q.sourceChain)
    return this.page('inbound', q.sourceChain, q)
  }

  /** UTXOs the C-Chain exported to `q.destinationChain` (what X/P would import), same paging. */
  getExportedUTXOs(q: GetExportedUTXOsQuery): GetUTXOsResult {
    return this.page('outbound', q.destinationChain, q)
  }

  private page(direction: 'inbound' | 'outbound', peerChain: Uint8Array, q: Pick<GetUTXOsQuery, 'addresses' | 'limit' | 'startIndex'>): GetUTXOsResult {
    const p = this.deps.sharedMemory.indexed(direction, peerChain, q.addresses, q.startIndex?.address ?? ZERO_ADDRESS, q.startIndex?.utxoID ?? ZERO_ID, q.limit)
    return { utxos: p.values, endIndex: { address: p.lastTrait, utxoID: p.lastKey ?? ZERO_ID } }
  }

  async putInbound(sourceChain: Uint8Array, utxoBytes: Uint8Array): Promise<void> {
    const utxo = decodeUTXO(utxoBytes)
    if (Buffer.compare(sourceChain, this.ctx.chainID) === 0) throw new AtomicError('tx has wrong chain ID')
    try {
      await this.deps.sharedMemory.apply([
        {
          direction: 'inbound',
          peerChain: sourceChain,
          puts: [{ key: utxoInputID(utxo.utxoID), value: utxoBytes, traits: utxo.out.addrs }],
        },
      ])
    } catch (err) {
      if (err instanceof SharedMemoryError) throw new AtomicError(err.message)
      throw err
    }
  }

  private semanticEnv(baseFee: bigint) {
    return {
      ctx: this.ctx,
      baseFee,
      nowUnix: unixNow(),
      fetchUTXOs: (chain: Uint8Array, ids: Uint8Array[]) => this.deps.sharedMemory.get('inbound', chain, ids),
    }
  }

  /** verifyTxAtTip: size and gas caps, then semantic and state checks on the head with the next base fee. */
  private async verifyTxAtTip(tx: AtomicTx): Promise<void> {
    const size = tx.signedBytes.length
    if (size > TARGET_ATOMIC_TXS_SIZE) throw new AtomicError(`tx size (${size}) exceeds total atomic txs size target (${TARGET_ATOMIC_TXS_SIZE})`)
    const gas = gasUsed(tx.tx.unsignedTx, tx.unsignedBytes.length)
    if (gas > MAX_ATOMIC_TX_MEMPOOL_GAS) throw new AtomicError(`tx gas usage (${gas}) exceeds maximum allowed mempool gas usage (${MAX_ATOMIC_TX_MEMPOOL_GAS})`)
    const { engine } = this.deps
    semanticVerify(tx, this.semanticEnv(engine.fees.nextBaseFee()))
    await checkEVMStateTransfer(tx.tx.unsignedTx, this.ctx.avaxAssetID, engine.headState())
  }

  hasPending(): boolean {
    return this.mempool.pendingLength > 0
  }

  /** postBatchOnFinalizeAndAssemble: pops txs by price within 40 KiB and the atomic gas limit, verifies and applies each. */
  async assemble(env: { number: bigint; baseFee: bigint; atomicGasLimit: bigint; sm: StateManagerInterface }): Promise<AtomicBatch | undefined> {
    const { mempool } = this
    const batch: AtomicTx[] = []
    const spent = new Set<string>()
    let size = 0
    let gasSum = 0n
    try {
      for (let tx = mempool.nextTx(); tx !== undefined; tx = mempool.nextTx()) {
        const txSize = tx.signedBytes.length
        const gas = gasUsed(tx.tx.unsignedTx, tx.unsignedBytes.length)
        if (size + txSize > TARGET_ATOMIC_TXS_SIZE || gasSum + gas > env.atomicGasLimit) {
          mempool.cancelCurrentTx(tx.id)
          break
        }
        const inputs = inputUTXOs(tx.tx.unsignedTx).map(hexOf)
        if (inputs.some((i) => spent.has(i))) {
          mempool.discardCurrentTx(tx.id)
          continue
        }
        await env.sm.checkpoint()
        try {
          semanticVerify(tx, this.semanticEnv(env.baseFee))
          await evmStateTransfer(tx.tx.unsignedTx, this.ctx.avaxAssetID, env.sm)
          await env.sm.commit()
        } catch (err) {
          await env.sm.revert()
          this.deps.log.debug({ txID: hexOf(tx.id), err: (err as Error).message }, 'discarding atomic tx from mempool on failed verification')
          mempool.discardCurrentTx(tx.id)
          continue
        }
        batch.push(tx)
        for (const i of inputs) spent.add(i)
        gasSum += gas
        size += txSize
      }
      if (batch.length === 0) return undefined
      const requests: SharedRequests[] = []
      const repoOps = batch.map((tx) => this.deps.txStore.putOp(tx.id, env.number, tx.signedBytes))
      for (const tx of batch) {
        const utx = tx.tx.unsignedTx
        if (utx.typeID === TYPE_ID.ImportTx) {
          requests.push({ direction: 'inbound', peerChain: utx.sourceChain, removes: utx.importedInputs.map((i) => utxoInputID(i.utxoID)) })
        } else {
          requests.push({
            direction: 'outbound',
            peerChain: utx.destinationChain,
            puts: utx.exportedOutputs.map((out, outputIndex) => {
              const utxo = { utxoID: { txID: tx.id, outputIndex }, assetID: out.assetID, out: out.out }
              return { key: utxoInputID(utxo.utxoID), value: encodeUTXO(utxo), traits: out.out.addrs }
            }),
          })
        }
      }
      const write = this.deps.sharedMemory.prepare(requests)
      return {
        extData: encodeAtomicTxBatch(batch.map((t) => t.tx)),
        gasUsed: gasSum,
        count: batch.length,
        ops: [...write.ops, ...repoOps],
        accepted: () => {
          write.applied()
          mempool.issueCurrentTxs()
          for (const tx of batch) mempool.removeTx(tx.id)
        },
        cancelled: () => mempool.cancelCurrentTxs(),
      }
    } catch (err) {
      mempool.cancelCurrentTxs()
      throw err
    }
  }
}
