/**
 * The P-Chain as far as AVAX transfers need it (avalanchego vms/platformvm: txs/executor standard_tx_executor.go
 * BaseTx/ImportTx/ExportTx/CreateSubnetTx, utxo/verifier.go, txs/fee dynamic_calculator.go): verifies an issued BaseTx,
 * ImportTx, ExportTx or CreateSubnetTx (the subnet's ID is the tx's ID) against the Etna dynamic fee and accepts it at once into a block of its own, its UTXO changes,
 * shared-memory effects and the new fee state in one atomic write. Accepted txs are `Committed`.
 *
 * Fee state (kept simple, documented): before each tx the state advances by the whole seconds since the last
 * accepted tx (capacity refills at maxPerSecond up to maxCapacity, excess drains at targetPerSecond), the price is
 * computed from that state, the tx must pay >= gas × price, and its gas is consumed (capacity -= gas, excess += gas).
 * `platform.getFeeState` reports the state advanced to now, so paying gas × its price is always enough.
 */
import type { Logger } from 'pino'
import { utxoInputID } from '../avalanche/avax.js'
import { AvalancheError, VerifyError } from '../avalanche/errors.js'
import { verifyOutputOwners } from '../avalanche/verify.js'
import type { OutputOwners } from '../avalanche/types.js'
import { sha256 } from '../util/crypto.js'
import type { Database } from '../store/db.js'
import { PChainStore } from '../store/pchainStore.js'
import { type SharedMemory, type SharedMemoryWrite, type SharedRequests, SharedMemoryError } from '../store/sharedMemory.js'
import type { StoredXUTXO } from '../store/xchainStore.js'
import { PVM_TYPE_ID } from './codec.js'
import { type GasState, LOCAL_FEE_CONFIG, advanceFeeState, calculateFee, consumeGas, feeStatePrice, initialFeeState, toGas, txComplexity } from './fees.js'
import { verifyPVMSpend } from './spend.js'
import { type PVMUTXO, type ParsedPVMTx, decodePVMUTXO, encodePVMUTXO, parsePVMTx, pvmExportedUTXOs, pvmProducedUTXOs } from './tx.js'
import { unixNow } from '../util/unixNow.js'

export interface PChainOptions {
  networkID: number
  pChainID: Uint8Array
  /** the chains P may import from and export to (X and C) */
  peerChains: readonly Uint8Array[]
  avaxAssetID: Uint8Array
}

export interface PChainDeps {
  store: PChainStore
  sharedMemory: SharedMemory
  log: Logger
}

/** A UTXO listing page (codec bytes) and where it stopped. */
export interface PUTXOListing {
  utxos: Uint8Array[]
  endAddress: Uint8Array
  endUTXOID: Uint8Array
}

/** The fee state with the chain time (unix seconds) it belongs to. */
export interface TimedFeeState extends GasState {
  time: bigint
}

const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')
const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0

function fail(message: string): never {
  throw new VerifyError(message)
}

/** What a P-Chain UTXO becomes in the store. */
export function storedPUTXO(utxo: PVMUTXO): StoredXUTXO {
  return { inputID: utxoInputID(utxo.utxoID), bytes: encodePVMUTXO(utxo), owners: utxo.out.addrs }
}

export class PChainService {
  private queue: Promise<unknown> = Promise.resolve()
  private fee: TimedFeeState

  private constructor(
    readonly opts: PChainOptions,
    private readonly deps: PChainDeps,
  ) {
    this.fee = deps.store.readFeeState() ?? { ...initialFeeState(), time: unixNow() }
  }

  /** Opens the P ledger (the first open writes `genesis` at height 0) and the saved fee state. */
  static async open(opts: PChainOptions, deps: Omit<PChainDeps, 'store'> & { db: Database }, genesis: readonly PVMUTXO[]): Promise<PChainService> {
    const store = await PChainStore.open(deps.db, genesis.map(storedPUTXO))
    return new PChainService(opts, { store, sharedMemory: deps.sharedMemory, log: deps.log })
  }

  /** Reads the ledger and the fee state from the database again (a revert or reset put it back); after a revert that put back none of them (`restored`), nothing. */
  reload(restored?: readonly Uint8Array[]): Promise<void> {
    if (restored !== undefined && !this.deps.store.holdsAny(restored)) return Promise.resolve()
    const run = this.queue.then(async () => {
      await this.deps.store.ledger.load()
      this.fee = this.deps.store.readFeeState() ?? { ...initialFeeState(), time: unixNow() }
    })
    this.queue = run.catch(() => undefined)
    return run
  }

  get height(): bigint {
    return this.deps.store.ledger.height
  }

  /** The fee state at `now` (unix seconds): the last state advanced by the elapsed whole seconds. */
  feeState(now = unixNow()): TimedFeeState {
    const elapsed = now > this.fee.time ? now - this.fee.time : 0n
    return { ...advanceFeeState(this.fee, elapsed), time: now > this.fee.time ? now : this.fee.time }
  }

  /** The current gas price. */
  price(): bigint {
    return feeStatePrice(this.feeState())
  }

  /** Parses, verifies and accepts a signed tx; returns its ID. */
  issueTx(signedBytes: Uint8Array): Promise<Uint8Array> {
    const tx = parsePVMTx(signedBytes)
    const run = this.queue.then(() => this.verifyAndAccept(tx))
    this.queue = run.catch(() => undefined)
    return run
  }

  private async verifyAndAccept(tx: ParsedPVMTx): Promise<Uint8Array> {
    const { sharedMemory } = this.deps
    const store = this.deps.store.ledger
    const utx = tx.tx.unsignedTx
    if (utx.networkID !== this.opts.networkID) fail('tx has wrong network ID')
    if (!same(utx.blockchainID, this.opts.pChainID)) fail('tx has wrong chain ID')
    // Durango and later: the memo field must be empty (verifyMemoFieldLength).
    if (utx.memo.length !== 0) fail(`memo length must be zero after Durango, got ${utx.memo.length}`)
    if (this.deps.store.ledger.getTx(tx.id) !== undefined) fail('duplicate transaction')
    // CreateSubnetTx.SyntacticVerify: the owner must be well formed (secp256k1fx OutputOwners.Verify).
    if (utx.typeID === PVM_TYPE_ID.CreateSubnetTx) verifyOutputOwners(utx.owner)
    const now = unixNow()
    const seen = new Set<string>()
    const unique = (id: Uint8Array): void => {
      const k = hexOf(id)
      if (seen.has(k)) fail('inputs are not sorted and unique')
      seen.add(k)
    }
    const spent: Uint8Array[] = []
    const utxos: PVMUTXO[] = []
    for (const input of utx.ins) {
      const id = utxoInputID(input.utxoID)
      unique(id)
      const found = store.getUTXO(id)
      if (found === undefined) fail(`failed to get UTXO ${hexOf(id)}: not found`)
      utxos.push(decodePVMUTXO(found.bytes))
      spent.push(id)
    }
    const requests: SharedRequests[] = []
    if (utx.typeID === PVM_TYPE_ID.ImportTx) {
      if (utx.importedInputs.length === 0) fail('no import inputs')
      this.peer(utx.sourceChain)
      const space = { sourceChain: utx.sourceChain, destinationChain: this.opts.pChainID }
      const ids = utx.importedInputs.map((i) => utxoInputID(i.utxoID))
      ids.forEach(unique)
      const found = sharedMemory.getIn(space, ids)
      found.forEach((bytes) => {
        if (bytes === undefined) fail('failed to get shared memory: not found')
        utxos.push(decodePVMUTXO(bytes))
      })
      requests.push({ ...space, removes: ids })
    } else if (utx.typeID === PVM_TYPE_ID.ExportTx) {
      if (utx.exportedOutputs.length === 0) fail('no export outputs')
      this.peer(utx.destinationChain)
      if (utx.exportedOutputs.some((o) => o.locktime !== undefined)) fail('exported output can not be stakeable locked')
      requests.push({
        sourceChain: this.opts.pChainID,
        destinationChain: utx.destinationChain,
        puts: pvmExportedUTXOs(tx).map((u) => ({ key: utxoInputID(u.utxoID), value: encodePVMUTXO(u), traits: u.out.addrs })),
      })
    }
    const state = this.feeState(now)
    const gas = toGas(txComplexity(utx), LOCAL_FEE_CONFIG.weights)
    const fee = calculateFee(utx, feeStatePrice(state))
    verifyPVMSpend({ utx, signingHash: sha256(tx.unsignedBytes), utxos, creds: tx.tx.creds, feeAssetID: this.opts.avaxAssetID, fee, now })
    const next: TimedFeeState = { ...consumeGas(state, gas), time: state.time }
    let write: SharedMemoryWrite
    try {
      write = sharedMemory.prepare(requests)
    } catch (err) {
      if (err instanceof SharedMemoryError) throw new AvalancheError(err.message)
      throw err
    }
    const extra = {
      ops: [...write.ops, this.deps.store.feeStateOp(next)],
      applied: () => {
        write.applied()
        this.fee = next
      },
    }
    const height = await store.accept(tx.id, tx.signedBytes, spent, pvmProducedUTXOs(tx).map(storedPUTXO), extra)
    this.deps.log.debug({ txID: hexOf(tx.id), height, gas, fee }, 'accepted P-Chain tx')
    return tx.id
  }

  /** verify.SameSubnet: another chain of the primary network. */
  private peer(chainID: Uint8Array): void {
    if (same(chainID, this.opts.pChainID)) fail('same chainID')
    if (!this.opts.peerChains.some((p) => same(p, chainID))) fail('mismatched subnet IDs')
  }

  status(txID: Uint8Array): 'Committed' | 'Unknown' {
    return this.deps.store.ledger.getTx(txID) !== undefined ? 'Committed' : 'Unknown'
  }

  getTx(txID: Uint8Array): { signedBytes: Uint8Array; height: bigint } | undefined {
    return this.deps.store.ledger.getTx(txID)
  }

  /** The owner of a subnet a CreateSubnetTx made (its ID is the tx's), or undefined. */
  subnetOwner(subnetID: Uint8Array): OutputOwners | undefined {
    const tx = this.deps.store.ledger.getTx(subnetID)
    return tx === undefined ? undefined : createdSubnetOwner(tx.signedBytes)
  }

  /** Every subnet a CreateSubnetTx made, in ID order, with its owner. */
  async createdSubnets(): Promise<{ id: Uint8Array; owner: OutputOwners }[]> {
    const out: { id: Uint8Array; owner: OutputOwners }[] = []
    for (const tx of await this.deps.store.ledger.txs()) {
      const owner = createdSubnetOwner(tx.signedBytes)
      if (owner !== undefined) out.push({ id: tx.id, owner })
    }
    return out
  }

  getUTXOs(addrs: readonly Uint8Array[], startAddr: Uint8Array, startUTXO: Uint8Array, limit: number): PUTXOListing {
    const p = this.deps.store.ledger.paginated(addrs, startAddr, startUTXO, limit)
    return { utxos: p.utxos, endAddress: p.lastAddr, endUTXOID: p.lastUTXOID }
  }

  /** What `sourceChain` exported to P (shared memory's Indexed order). */
  getAtomicUTXOs(sourceChain: Uint8Array, addrs: readonly Uint8Array[], startAddr: Uint8Array, startUTXO: Uint8Array, limit: number): PUTXOListing {
    const p = this.deps.sharedMemory.indexedIn({ sourceChain, destinationChain: this.opts.pChainID }, addrs, startAddr, startUTXO, limit)
    return { utxos: p.values, endAddress: p.lastTrait, endUTXOID: p.lastKey ?? new Uint8Array(32) }
  }

  /** The decoded unspent UTXOs an address owns. */
  utxosOf(addr: Uint8Array): PVMUTXO[] {
    return this.deps.store.ledger.utxosOf(addr).map((u) => decodePVMUTXO(u.bytes))
  }
}

/** A CreateSubnetTx's owner; undefined for any other tx. */
function createdSubnetOwner(signedBytes: Uint8Array): OutputOwners | undefined {
  const utx = parsePVMTx(signedBytes).tx.unsignedTx
  return utx.typeID === PVM_TYPE_ID.CreateSubnetTx ? utx.owner : undefined
}
