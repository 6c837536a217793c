/**
 * The X-Chain as far as AVAX transfers need it (avalanchego vms/avm: txs/executor syntactic_verifier.go,
 * semantic_verifier.go, executor.go; vms/components/avax): verifies an issued BaseTx/ImportTx/ExportTx and
 * accepts it at once into a block of its own, its UTXO changes and shared-memory effects in one atomic write.
 * Imports consume what C or P exported to X; exports put UTXOs into shared memory for C or P.
 */
import type { Logger } from 'pino'
import { utxoInputID } from '../avalanche/avax.js'
import { AvalancheError, VerifyError } from '../avalanche/errors.js'
import { verifySpend } from '../avalanche/spend.js'
import { sha256 } from '../util/crypto.js'
import type { TransferableInput, UTXO, Verifiable } from '../avalanche/types.js'
import { type SharedMemory, type SharedMemoryWrite, type SharedRequests, SharedMemoryError } from '../store/sharedMemory.js'
import type { StoredXUTXO, XChainStore } from '../store/xchainStore.js'
import { AVM_TYPE_ID } from './codec.js'
import { X_TX_FEE, verifyAVMFlow } from './fees.js'
import { type ParsedAVMTx, MAX_MEMO_SIZE, avmExportedUTXOs, avmProducedUTXOs, decodeAVMUTXO, encodeAVMUTXO, parseAVMTx } from './tx.js'
import { unixNow } from '../util/unixNow.js'

export interface XChainOptions {
  networkID: number
  xChainID: Uint8Array
  /** the chains X may import from and export to (C and P: the primary network's other chains) */
  peerChains: readonly Uint8Array[]
  avaxAssetID: Uint8Array
  txFee?: bigint
}

export interface XChainDeps {
  store: XChainStore
  sharedMemory: SharedMemory
  log: Logger
}

/** A UTXO listing page (codec bytes) and where it stopped. */
export interface XUTXOListing {
  utxos: Uint8Array[]
  endAddress: Uint8Array
  endUTXOID: Uint8Array
}

const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')
const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0

function fail(message: string): never {
  throw new VerifyError(message)
}

/** What an X-Chain UTXO becomes in the store. */
export function storedXUTXO(utxo: UTXO): StoredXUTXO {
  return { inputID: utxoInputID(utxo.utxoID), bytes: encodeAVMUTXO(utxo), owners: utxo.out.addrs }
}

export class XChainService {
  readonly txFee: bigint
  /** Issues run one at a time: verification sees every earlier accept. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    readonly opts: XChainOptions,
    private readonly deps: XChainDeps,
  ) {
    this.txFee = opts.txFee ?? X_TX_FEE
  }

  get height(): bigint {
    return this.deps.store.height
  }

  /** Parses, verifies and accepts a signed tx; returns its ID. Re-issuing an accepted tx fails: its inputs are spent. */
  issueTx(signedBytes: Uint8Array): Promise<Uint8Array> {
    const tx = parseAVMTx(signedBytes)
    const run = this.queue.then(() => this.verifyAndAccept(tx))
    this.queue = run.catch(() => undefined)
    return run
  }

  private async verifyAndAccept(tx: ParsedAVMTx): Promise<Uint8Array> {
    const { store, sharedMemory } = this.deps
    this.syntactic(tx)
    const utx = tx.tx.unsignedTx
    const hash = sha256(tx.unsignedBytes)
    const nowUnix = unixNow()
    const spent: Uint8Array[] = []
    utx.ins.forEach((input, i) => {
      const id = utxoInputID(input.utxoID)
      const found = store.getUTXO(id)
      if (found === undefined) fail('not found')
      this.verifyTransfer(hash, input, tx.tx.creds[i]!, decodeAVMUTXO(found.bytes), nowUnix)
      spent.push(id)
    })
    const requests: SharedRequests[] = []
    if (utx.typeID === AVM_TYPE_ID.ImportTx) {
      const space = { sourceChain: utx.sourceChain, destinationChain: this.opts.xChainID }
      const ids = utx.importedIns.map((i) => utxoInputID(i.utxoID))
      const found = sharedMemory.getIn(space, ids)
      utx.importedIns.forEach((input, i) => {
        const bytes = found[i]
        if (bytes === undefined) fail('not found')
        this.verifyTransfer(hash, input, tx.tx.creds[utx.ins.length + i]!, decodeAVMUTXO(bytes), nowUnix)
      })
      requests.push({ ...space, removes: ids })
    } else if (utx.typeID === AVM_TYPE_ID.ExportTx) {
      requests.push({
        sourceChain: this.opts.xChainID,
        destinationChain: utx.destinationChain,
        puts: avmExportedUTXOs(tx).map((u) => ({ key: utxoInputID(u.utxoID), value: encodeAVMUTXO(u), traits: u.out.addrs })),
      })
    }
    let write: SharedMemoryWrite
    try {
      write = sharedMemory.prepare(requests)
    } catch (err) {
      if (err instanceof SharedMemoryError) throw new AvalancheError(err.message)
      throw err
    }
    const height = await store.accept(tx.id, tx.signedBytes, spent, avmProducedUTXOs(tx).map(storedXUTXO), write)
    this.deps.log.debug({ txID: hexOf(tx.id), height }, 'accepted X-Chain tx')
    return tx.id
  }

  /** SyntacticVerifier: BaseTx fields, import/export specifics, the flow check with the fee, credential count. */
  private syntactic(tx: ParsedAVMTx): void {
    const utx = tx.tx.unsignedTx
    if (utx.networkID !== this.opts.networkID) fail('tx has wrong network ID')
    if (!same(utx.blockchainID, this.opts.xChainID)) fail('tx has wrong chain ID')
    if (utx.memo.length > MAX_MEMO_SIZE) fail(`memo exceeds maximum length: ${utx.memo.length} > ${MAX_MEMO_SIZE}`)
    let inputs = utx.ins.length
    if (utx.typeID === AVM_TYPE_ID.ImportTx) {
      if (utx.importedIns.length === 0) fail('no import inputs')
      this.peer(utx.sourceChain)
      inputs += utx.importedIns.length
    } else if (utx.typeID === AVM_TYPE_ID.ExportTx) {
      if (utx.exportedOuts.length === 0) fail('no export outputs')
      this.peer(utx.destinationChain)
    }
    verifyAVMFlow(utx, this.opts.avaxAssetID, this.txFee)
    if (tx.tx.creds.length !== inputs) fail('wrong number of credentials')
  }

  /** verify.SameSubnet: another chain of the primary network. */
  private peer(chainID: Uint8Array): void {
    if (same(chainID, this.opts.xChainID)) fail('same chainID')
    if (!this.opts.peerChains.some((p) => same(p, chainID))) fail('mismatched subnet IDs')
  }

  /** verifyTransferOfUTXO: same asset, then secp256k1fx VerifyTransfer (amount, locktime, signers). */
  private verifyTransfer(hash: Uint8Array, input: TransferableInput, cred: { typeID: number; sigs: Uint8Array[] }, utxo: UTXO, nowUnix: bigint): void {
    if (!same(utxo.assetID, input.assetID)) fail("asset IDs in the input don't match the utxo")
    if (cred.typeID !== AVM_TYPE_ID.Credential) fail('incompatible fx')
    verifySpend(hash, input.in, cred as Verifiable, utxo.out, nowUnix)
  }

  status(txID: Uint8Array): 'Accepted' | 'Unknown' {
    return this.deps.store.getTx(txID) !== undefined ? 'Accepted' : 'Unknown'
  }

  getTx(txID: Uint8Array): { signedBytes: Uint8Array; height: bigint } | undefined {
    return this.deps.store.getTx(txID)
  }

  /** avax.GetPaginatedUTXOs over the X ledger. */
  /** Reads the ledger from the database again (a revert or reset put it back); after a revert that put back none of its records (`restored`), nothing. */
  reload(restored?: readonly Uint8Array[]): Promise<void> {
    if (restored !== undefined && !this.deps.store.holdsAny(restored)) return Promise.resolve()
    const run = this.queue.then(() => this.deps.store.load())
    this.queue = run.catch(() => undefined)
    return run
  }

  getUTXOs(addrs: readonly Uint8Array[], startAddr: Uint8Array, startUTXO: Uint8Array, limit: number): XUTXOListing {
    const p = this.deps.store.paginated(addrs, startAddr, startUTXO, limit)
    return { utxos: p.utxos, endAddress: p.lastAddr, endUTXOID: p.lastUTXOID }
  }

  /** avax.GetAtomicUTXOs: what `sourceChain` exported to X (shared memory's Indexed order). */
  getAtomicUTXOs(sourceChain: Uint8Array, addrs: readonly Uint8Array[], startAddr: Uint8Array, startUTXO: Uint8Array, limit: number): XUTXOListing {
    const p = this.deps.sharedMemory.indexedIn({ sourceChain, destinationChain: this.opts.xChainID }, addrs, startAddr, startUTXO, limit)
    return { utxos: p.values, endAddress: p.lastTrait, endUTXOID: p.lastKey ?? new Uint8Array(32) }
  }

  /** The decoded unspent UTXOs an address owns. */
  utxosOf(addr: Uint8Array): UTXO[] {
    return this.deps.store.utxosOf(addr).map((u) => decodeAVMUTXO(u.bytes))
  }
}
