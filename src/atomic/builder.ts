/**
 * Builds and signs the atomic txs of the keystore-backed `export`/`import` methods, as coreth v0.14.0
 * did (plugin/evm/atomic/export_tx.go NewExportTx, getSpendableAVAXWithFee; import_tx.go NewImportTx;
 * plugin/evm/service.go; the keys matched as avalanchego's vms/secp256k1fx/keychain.go Match,
 * in src/avalanche/keychain.ts). Always the current rules (AP5, Banff).
 */
import { decodeUTXO } from '../avalanche/avax.js'
import { TYPE_ID } from '../avalanche/codec.js'
import { AtomicError } from './errors.js'
import { AvalancheError, VerifyError } from '../avalanche/errors.js'
import { EVM_INPUT_GAS, EVM_OUTPUT_GAS, X2C_RATE, calculateDynamicFee, gasUsed } from './fees.js'
import { credential } from '../avalanche/secp256k1fx.js'
import { signHash } from '../avalanche/signature.js'
import { type AtomicTx, encodeUnsignedTx, signingHash, toAtomicTx } from './tx.js'
import { matchOwners } from '../avalanche/keychain.js'
import type { EVMInput, EVMOutput, UnsignedAtomicTx, UnsignedExportTx, UnsignedImportTx } from './types.js'
import type { TransferableInput } from '../avalanche/types.js'
import { type VerifyContext, compareEVMInOut, verifyExportTx, verifyImportTx } from './verify.js'
import { compareTransferableInputs } from '../avalanche/compare.js'

const UINT64_MAX = 0xffffffffffffffffn

/** A key the builder may sign with, with both of its address forms. */
export interface SigningKey {
  /** DATA, 32 bytes */
  readonly privateKey: Uint8Array
  /** DATA, 20 bytes: EVM address (EVMInput.address) */
  readonly ethAddress: Uint8Array
  /** DATA, 20 bytes: short address (UTXO owners) */
  readonly shortAddress: Uint8Array
}

/** What the export builder reads from the head state (vm.blockChain.State()). */
export interface EVMStateReader {
  /** QUANTITY, wei */
  balance(address: Uint8Array): Promise<bigint>
  nonce(address: Uint8Array): Promise<bigint>
}

export interface ExportTxParams {
  ctx: VerifyContext
  state: EVMStateReader
  assetID: Uint8Array
  /** QUANTITY, nAVAX */
  amount: bigint
  destinationChain: Uint8Array
  /** DATA, 20 bytes: the short address the exported output pays */
  to: Uint8Array
  /** QUANTITY, wei per gas */
  baseFee: bigint
  /** In the user's stored order. */
  keys: readonly SigningKey[]
}

export interface ImportTxParams {
  ctx: VerifyContext
  sourceChain: Uint8Array
  /** DATA, 20 bytes: the EVM address credited */
  to: Uint8Array
  /** QUANTITY, wei per gas */
  baseFee: bigint
  keys: readonly SigningKey[]
  /** UTXO codec bytes (with version), as shared memory lists them for the keys' addresses. */
  utxos: readonly Uint8Array[]
  /** unix seconds (the keychain's time-lock check) */
  nowUnix: bigint
}

const sameID = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0

function add(a: bigint, b: bigint): bigint {
  const sum = a + b
  if (sum > UINT64_MAX) throw new AtomicError('overflow')
  return sum
}

/** Gas of an unsigned tx under the AP5 rules (tx.Sign(Codec, nil) then GasUsed(true)). */
function gasOf(utx: UnsignedAtomicTx): bigint {
  return gasUsed(utx, encodeUnsignedTx(utx).length, true)
}

/** tx.Sign(Codec, signers): one credential per input, a signature per signer over sha256(unsigned bytes). */
function sign(utx: UnsignedAtomicTx, signers: readonly (readonly Uint8Array[])[]): AtomicTx {
  const hash = signingHash(encodeUnsignedTx(utx))
  const creds = signers.map((keys) => credential(keys.map((k) => signHash(k, hash))))
  return toAtomicTx({ unsignedTx: utx, creds })
}

/** Sorts `items` and their signer lists together (SortEVMInputsAndSigners / SortTransferableInputsWithSigners). */
function sortWithSigners<T>(items: T[], signers: Uint8Array[][], compare: (a: T, b: T) => number): void {
  const order = items.map((item, i) => ({ item, keys: signers[i]! })).sort((a, b) => compare(a.item, b.item))
  order.forEach((e, i) => {
    items[i] = e.item
    signers[i] = e.keys
  })
}

/**
 * getSpendableAVAXWithFee: keys in order, each adding one EVMInput while its balance exceeds the marginal fee
 * of that input; `couldn't generate tx inputs/signers: insufficient funds` when they do not cover amount + fee.
 */
async function spendableAVAXWithFee(p: ExportTxParams, amountNeeded: bigint, initialCost: bigint): Promise<{ ins: EVMInput[]; signers: Uint8Array[][] }> {
  let cost = initialCost
  let amount = add(amountNeeded, calculateDynamicFee(cost, p.baseFee))
  const ins: EVMInput[] = []
  const signers: Uint8Array[][] = []
  for (const key of p.keys) {
    if (amount === 0n) break
    const prevFee = calculateDynamicFee(cost, p.baseFee)
    const newCost = cost + EVM_INPUT_GAS
    const additionalFee = calculateDynamicFee(newCost, p.baseFee) - prevFee
    let balance = (await p.state.balance(key.ethAddress)) / X2C_RATE
    if (balance > UINT64_MAX) balance = UINT64_MAX
    if (balance <= additionalFee) continue
    cost = newCost
    amount = add(amount, additionalFee)
    const inputAmount = amount < balance ? amount : balance
    ins.push({ address: key.ethAddress, amount: inputAmount, assetID: p.ctx.avaxAssetID, nonce: await p.state.nonce(key.ethAddress) })
    signers.push([key.privateKey])
    amount -= inputAmount
  }
  if (amount > 0n) throw new AtomicError('insufficient funds')
  return { ins, signers }
}

/**
 * NewExportTx: one TransferOutput {amount, locktime 0, threshold 1, [to]}, AVAX inputs from the keys with the
 * fee of gas (incl. the inputs) at `baseFee`, nonces from the state, inputs sorted, signed, then Verify.
 * Errors are coreth's unwrapped texts (the API prefixes `couldn't create tx: `).
 */
export async function buildExportTx(p: ExportTxParams): Promise<AtomicTx> {
  const outs = [{ assetID: p.assetID, out: { amount: p.amount, locktime: 0n, threshold: 1, addrs: [p.to] } }]
  // A non-AVAX asset is spent from multicoin balances, which Banff leaves empty on every key.
  if (!sameID(p.assetID, p.ctx.avaxAssetID)) throw new AtomicError("couldn't generate tx inputs/signers: insufficient funds")
  const base = (ins: EVMInput[]): UnsignedExportTx => ({
    typeID: TYPE_ID.ExportTx,
    networkID: p.ctx.networkID,
    blockchainID: p.ctx.chainID,
    destinationChain: p.destinationChain,
    ins,
    exportedOutputs: outs,
  })
  let spent: Awaited<ReturnType<typeof spendableAVAXWithFee>>
  try {
    spent = await spendableAVAXWithFee(p, p.amount, gasOf(base([])))
  } catch (err) {
    if (err instanceof AvalancheError) throw new AtomicError(`couldn't generate tx inputs/signers: ${err.message}`)
    throw err
  }
  sortWithSigners(spent.ins, spent.signers, compareEVMInOut)
  const utx = base(spent.ins)
  const tx = sign(utx, spent.signers)
  verifyExportTx(p.ctx, utx)
  return tx
}

/**
 * NewImportTx: spends every UTXO the keys can spend now; one EVMOutput per non-AVAX asset and one AVAX output
 * of ΣAVAX − fee(gas incl. that output); `insufficient AVAX funds to pay transaction fee` below the fee.
 */
export function buildImportTx(p: ImportTxParams): AtomicTx {
  const inputs: TransferableInput[] = []
  const signers: Uint8Array[][] = []
  const imported = new Map<string, { assetID: Uint8Array; amount: bigint }>()
  for (const bytes of p.utxos) {
    const utxo = decodeUTXO(bytes)
    const m = matchOwners(utxo.out, p.keys, p.nowUnix)
    if (m === undefined) continue
    const key = Buffer.from(utxo.assetID).toString('hex')
    const prev = imported.get(key) ?? { assetID: utxo.assetID, amount: 0n }
    imported.set(key, { assetID: utxo.assetID, amount: add(prev.amount, utxo.out.amount) })
    inputs.push({ utxoID: utxo.utxoID, assetID: utxo.assetID, in: { amount: utxo.out.amount, sigIndices: m.sigIndices } })
    signers.push(m.signers)
  }
  sortWithSigners(inputs, signers, compareTransferableInputs)
  const avax = imported.get(Buffer.from(p.ctx.avaxAssetID).toString('hex'))?.amount ?? 0n
  const outs: EVMOutput[] = []
  for (const { assetID, amount } of imported.values()) {
    if (sameID(assetID, p.ctx.avaxAssetID) || amount === 0n) continue
    outs.push({ address: p.to, amount, assetID })
  }
  const base = (o: EVMOutput[]): UnsignedImportTx => ({
    typeID: TYPE_ID.ImportTx,
    networkID: p.ctx.networkID,
    blockchainID: p.ctx.chainID,
    sourceChain: p.sourceChain,
    importedInputs: inputs,
    outs: o,
  })
  const gasWithoutChange = gasOf(base(outs))
  const feeWithoutChange = calculateDynamicFee(gasWithoutChange, p.baseFee)
  const feeWithChange = calculateDynamicFee(gasWithoutChange + EVM_OUTPUT_GAS, p.baseFee)
  if (avax < feeWithoutChange) throw new AtomicError('insufficient AVAX funds to pay transaction fee')
  if (avax > feeWithChange) outs.push({ address: p.to, amount: avax - feeWithChange, assetID: p.ctx.avaxAssetID })
  if (outs.length === 0) throw new VerifyError('tx has no EVM outputs')
  outs.sort(compareEVMInOut)
  const utx = base(outs)
  const tx = sign(utx, signers)
  verifyImportTx(p.ctx, utx)
  return tx
}
