/**
 * Reading the Avalanche codec (linear codec v0) in the browser: the atomic txs of the C-Chain (coreth:
 * plugin/evm/atomic/{import_tx,export_tx}.go), the X-Chain's and P-Chain's base, import and export txs
 * (avalanchego: vms/avm/txs, vms/platformvm/txs) and UTXOs, with their secp256k1fx inputs and outputs.
 * Only what the explorer shows is decoded; any other type is named by its type ID.
 */
import { concatBytes, hexToBytes, sha256 } from './bytes.js'

export type ChainLetter = 'C' | 'X' | 'P'

class Reader {
  at = 0
  private readonly view: DataView
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }
  need(n: number): void {
    if (this.at + n > this.bytes.length) throw new Error('truncated codec bytes')
  }
  u16(): number {
    this.need(2)
    const v = this.view.getUint16(this.at)
    this.at += 2
    return v
  }
  u32(): number {
    this.need(4)
    const v = this.view.getUint32(this.at)
    this.at += 4
    return v
  }
  u64(): bigint {
    this.need(8)
    const v = this.view.getBigUint64(this.at)
    this.at += 8
    return v
  }
  fixed(n: number): Uint8Array {
    this.need(n)
    const v = this.bytes.slice(this.at, this.at + n)
    this.at += n
    return v
  }
  list<T>(read: (r: Reader) => T): T[] {
    const n = this.u32()
    if (n > this.bytes.length) throw new Error('codec slice too long')
    const out: T[] = []
    for (let i = 0; i < n; i++) out.push(read(this))
    return out
  }
}

/** An input: a UTXO spent (X, P, C imports) or an EVM account debited (C exports). */
export type TxInput =
  | { kind: 'utxo'; txID: Uint8Array; outputIndex: number; assetID: Uint8Array; amount: bigint; locktime?: bigint; imported: boolean }
  | { kind: 'evm'; address: Uint8Array; amount: bigint; assetID: Uint8Array; nonce: bigint }

/** An output: a UTXO made (to this chain, or exported to another) or an EVM account credited (C imports). */
export type TxOutput =
  | { kind: 'utxo'; assetID: Uint8Array; amount: bigint; locktime: bigint; threshold: number; addresses: Uint8Array[]; stakeLocktime?: bigint; exported: boolean }
  | { kind: 'evm'; address: Uint8Array; amount: bigint; assetID: Uint8Array }
  | { kind: 'other'; assetID: Uint8Array; typeID: number; exported: boolean }

export interface DecodedTx {
  chain: ChainLetter
  /** ImportTx, ExportTx, BaseTx, or `type <n>` for one not decoded. */
  type: string
  networkID?: number
  blockchainID?: Uint8Array
  sourceChain?: Uint8Array
  destinationChain?: Uint8Array
  ins: TxInput[]
  outs: TxOutput[]
  memo?: Uint8Array
}

const ID = 32
const SHORT = 20

/** secp256k1fx.OutputOwners after its type ID (7: TransferOutput has the amount first). */
function readOutput(r: Reader, typeID: number, assetID: Uint8Array, exported: boolean): TxOutput {
  if (typeID === 22) {
    // P-Chain stakeable.LockOut: a locktime, then the wrapped TransferOutput.
    const stakeLocktime = r.u64()
    const inner = readOutput(r, r.u32(), assetID, exported)
    return inner.kind === 'utxo' ? { ...inner, stakeLocktime } : inner
  }
  if (typeID !== 7) throw new Error(`output type ${typeID} not decoded`)
  const amount = r.u64()
  const locktime = r.u64()
  const threshold = r.u32()
  return { kind: 'utxo', assetID, amount, locktime, threshold, addresses: r.list((e) => e.fixed(SHORT)), exported }
}

function readTransferableOutput(exported: boolean) {
  return (r: Reader): TxOutput => {
    const assetID = r.fixed(ID)
    return readOutput(r, r.u32(), assetID, exported)
  }
}

function readInputBody(r: Reader, typeID: number): { amount: bigint; locktime?: bigint } {
  if (typeID === 21) {
    // P-Chain stakeable.LockIn.
    const locktime = r.u64()
    return { ...readInputBody(r, r.u32()), locktime }
  }
  if (typeID !== 5) throw new Error(`input type ${typeID} not decoded`)
  const amount = r.u64()
  r.list((e) => e.u32())
  return { amount }
}

function readTransferableInput(imported: boolean) {
  return (r: Reader): TxInput => {
    const txID = r.fixed(ID)
    const outputIndex = r.u32()
    const assetID = r.fixed(ID)
    return { kind: 'utxo', txID, outputIndex, assetID, ...readInputBody(r, r.u32()), imported }
  }
}

const readEVMOutput = (r: Reader): TxOutput => ({ kind: 'evm', address: r.fixed(SHORT), amount: r.u64(), assetID: r.fixed(ID) })
const readEVMInput = (r: Reader): TxInput => ({ kind: 'evm', address: r.fixed(SHORT), amount: r.u64(), assetID: r.fixed(ID), nonce: r.u64() })

/** Type IDs of each chain's import, export and base txs. */
const TX_TYPES: Record<ChainLetter, { import: number; export: number; base?: number }> = {
  C: { import: 0, export: 1 },
  X: { import: 3, export: 4, base: 0 },
  P: { import: 17, export: 18, base: 34 },
}

function readUnsigned(r: Reader, chain: ChainLetter): DecodedTx {
  const typeID = r.u32()
  const types = TX_TYPES[chain]
  const known = typeID === types.import || typeID === types.export || typeID === types.base
  if (!known) return { chain, type: `type ${typeID}`, ins: [], outs: [] }
  const networkID = r.u32()
  const blockchainID = r.fixed(ID)
  if (chain === 'C') {
    const peer = r.fixed(ID)
    if (typeID === types.import) {
      const ins = r.list(readTransferableInput(true))
      return { chain, type: 'ImportTx', networkID, blockchainID, sourceChain: peer, ins, outs: r.list(readEVMOutput) }
    }
    const ins = r.list(readEVMInput)
    return { chain, type: 'ExportTx', networkID, blockchainID, destinationChain: peer, ins, outs: r.list(readTransferableOutput(true)) }
  }
  const outs = r.list(readTransferableOutput(false))
  const ins = r.list(readTransferableInput(false))
  const memo = r.fixed(r.u32())
  const base = { chain, networkID, blockchainID, memo }
  if (typeID === types.import) {
    const sourceChain = r.fixed(ID)
    return { ...base, type: 'ImportTx', sourceChain, ins: [...ins, ...r.list(readTransferableInput(true))], outs }
  }
  if (typeID === types.export) {
    const destinationChain = r.fixed(ID)
    return { ...base, type: 'ExportTx', destinationChain, ins, outs: [...outs, ...r.list(readTransferableOutput(true))] }
  }
  return { ...base, type: 'BaseTx', ins, outs }
}

/** Skips a tx's credentials ([]verify.Verifiable: type ID, then signatures of 65 bytes). */
function skipCredentials(r: Reader): void {
  r.list((e) => {
    e.u32()
    e.list((s) => s.fixed(65))
    return undefined
  })
}

/** Bytes of avalanchego's `hex` encoding (0x, hex, 4 checksum bytes: utils/formatting/encoding.go), checksum dropped. */
export function fromAvalancheHex(text: string): Uint8Array {
  const bytes = hexToBytes(text)
  return bytes.subarray(0, bytes.length - 4)
}

/** A signed tx's bytes (codec version first) decoded as a tx of `chain`. */
export function decodeTx(bytes: Uint8Array, chain: ChainLetter): DecodedTx {
  const r = new Reader(bytes)
  r.u16()
  return readUnsigned(r, chain)
}

/**
 * The atomic txs of a C-Chain block's `blockExtraData`, each as its signed bytes, ID (sha256 of those
 * bytes) and decoding: a batch (`[]*Tx`, Apricot Phase 5 on) or a single tx before it (coreth: atomic/codec.go).
 */
export function blockAtomicTxs(extData: string): { id: Uint8Array; tx: DecodedTx }[] {
  const bytes = hexToBytes(extData)
  if (bytes.length === 0) return []
  const version = bytes.subarray(0, 2)
  const read = (r: Reader) => {
    const start = r.at
    const tx = readUnsigned(r, 'C')
    skipCredentials(r)
    const signed = concatBytes(version, bytes.subarray(start, r.at))
    return { id: sha256(signed), tx }
  }
  try {
    const r = new Reader(bytes)
    r.u16()
    const txs = r.list(read)
    if (r.at === bytes.length) return txs
  } catch {
    // Not a batch: the single tx of an older block.
  }
  const r = new Reader(bytes)
  r.u16()
  return [read(r)]
}

/** A UTXO (avax.UTXO) from getUTXOs: where it came from and what it holds. */
export interface DecodedUTXO {
  txID: Uint8Array
  outputIndex: number
  output: TxOutput
}

export function decodeUTXO(bytes: Uint8Array): DecodedUTXO {
  const r = new Reader(bytes)
  r.u16()
  const txID = r.fixed(ID)
  const outputIndex = r.u32()
  const assetID = r.fixed(ID)
  const typeID = r.u32()
  let output: TxOutput
  try {
    output = readOutput(r, typeID, assetID, false)
  } catch {
    output = { kind: 'other', assetID, typeID, exported: false }
  }
  return { txID, outputIndex, output }
}
