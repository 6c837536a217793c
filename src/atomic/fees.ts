/** Gas and fees of atomic txs (coreth atomic/tx.go, import_tx.go, export_tx.go). */
import { TYPE_ID } from '../avalanche/codec.js'
import { VerifyError } from '../avalanche/errors.js'
import type { UnsignedAtomicTx } from './types.js'

const UINT64_MAX = 0xffffffffffffffffn
/** 1 nAVAX = 1e9 wei (atomic.X2CRate). */
export const X2C_RATE = 1_000_000_000n
/** secp256k1fx.CostPerSignature. */
export const COST_PER_SIGNATURE = 1000n
/** ap5.AtomicTxIntrinsicGas. */
export const ATOMIC_TX_INTRINSIC_GAS = 10_000n
/** Gas of one more EVMOutput / EVMInput, which coreth's builders pre-account for. */
export const EVM_OUTPUT_GAS = 60n
export const EVM_INPUT_GAS = 68n + COST_PER_SIGNATURE
/** AP3 initial base fee, the fallback when there is no base fee to estimate from (225 gwei). */
export const AP3_INITIAL_BASE_FEE = 225_000_000_000n
/** Pre-AP3 fixed fee (0.001 AVAX). */
export const ATOMIC_TX_FEE = 1_000_000n

function fail(message: string): never {
  throw new VerifyError(message)
}

function checkedAdd(a: bigint, b: bigint): bigint {
  const sum = a + b
  if (sum > UINT64_MAX) fail('overflow')
  return sum
}

/**
 * GasUsed(fixedFee): 1 gas per unsigned byte, 1000 per signature (import: per sig index; export: per EVMInput),
 * plus 10,000 from AP5 (`fixedFee` = isApricotPhase5).
 */
export function gasUsed(utx: UnsignedAtomicTx, unsignedByteLength: number, fixedFee = true): bigint {
  const sigs = utx.typeID === TYPE_ID.ImportTx ? utx.importedInputs.reduce((n, input) => n + input.in.sigIndices.length, 0) : utx.ins.length
  let gas = checkedAdd(BigInt(unsignedByteLength), BigInt(sigs) * COST_PER_SIGNATURE)
  if (fixedFee) gas = checkedAdd(gas, ATOMIC_TX_INTRINSIC_GAS)
  return gas
}

/** CalculateDynamicFee: ceil(gas × baseFee(wei) / 1e9) nAVAX, which must fit in a uint64. */
export function calculateDynamicFee(gas: bigint, baseFeeWei: bigint | null | undefined): bigint {
  if (baseFeeWei === null || baseFeeWei === undefined) fail('cannot calculate dynamic fee with nil baseFee')
  const fee = (gas * baseFeeWei + X2C_RATE - 1n) / X2C_RATE
  if (fee > UINT64_MAX || fee < 0n) fail('overflow occurred while calculating the fee')
  return fee
}

/** Burned(assetID): Σ consumed − Σ produced of the asset, with math.Add/Sub's `overflow`/`underflow`. */
export function burned(utx: UnsignedAtomicTx, assetID: Uint8Array): bigint {
  const is = (id: Uint8Array): boolean => Buffer.compare(id, assetID) === 0
  let spent = 0n
  let input = 0n
  if (utx.typeID === TYPE_ID.ImportTx) {
    for (const out of utx.outs) if (is(out.assetID)) spent = checkedAdd(spent, out.amount)
    for (const inp of utx.importedInputs) if (is(inp.assetID)) input = checkedAdd(input, inp.in.amount)
  } else {
    for (const out of utx.exportedOutputs) if (is(out.assetID)) spent = checkedAdd(spent, out.out.amount)
    for (const inp of utx.ins) if (is(inp.assetID)) input = checkedAdd(input, inp.amount)
  }
  if (input < spent) fail('underflow')
  return input - spent
}

/** EffectiveGasPrice: burned × 1e9 / gas in wei per gas, rounded down (the mempool's ranking). */
export function effectiveGasPrice(burnedNAVAX: bigint, gas: bigint): bigint {
  if (gas === 0n) fail('no gas used')
  return (burnedNAVAX * X2C_RATE) / gas
}

/** Tx.BlockFeeContribution: the wei burned above the required fee, and the gas used. */
export function blockFeeContribution(burnedNAVAX: bigint, gas: bigint, baseFeeWei: bigint | null | undefined): { contribution: bigint; gasUsed: bigint } {
  if (baseFeeWei === null || baseFeeWei === undefined) fail('cannot calculate dynamic fee with nil baseFee')
  if (baseFeeWei <= 0n) fail(`cannot calculate tip with base fee ${baseFeeWei} <= 0`)
  const fee = calculateDynamicFee(gas, baseFeeWei)
  if (fee > burnedNAVAX) fail(`insufficient AVAX burned (${burnedNAVAX}) to cover import tx fee (${fee})`)
  return { contribution: (burnedNAVAX - fee) * X2C_RATE, gasUsed: gas }
}

/**
 * The base fee coreth v0.14 used when `import`/`export` got no `baseFee` (vm.estimateBaseFee):
 * eth_baseFee × 11 / 10, or the AP3 initial base fee (225 gwei) when there is none.
 */
export function suggestedBaseFee(currentBaseFeeWei: bigint | null | undefined): bigint {
  if (currentBaseFeeWei === null || currentBaseFeeWei === undefined) return AP3_INITIAL_BASE_FEE
  return (currentBaseFeeWei * 11n) / 10n
}

/** The fee (nAVAX) a tx of `gas` pays under the suggested base fee. */
export function suggestedFee(gas: bigint, currentBaseFeeWei: bigint | null | undefined): bigint {
  return calculateDynamicFee(gas, suggestedBaseFee(currentBaseFeeWei))
}

/**
 * hexutil.Big as the `baseFee` argument accepts it: `0x`-prefixed, no leading zero digits, at most 256 bits.
 * Throws a plain Error (the API reports any argument failure with one generic message).
 */
export function parseHexBig(text: string): bigint {
  if (!/^0[xX]/.test(text)) throw new Error('hex string without 0x prefix')
  const digits = text.slice(2)
  if (digits.length === 0) throw new Error('hex string "0x"')
  if (digits.length > 1 && digits[0] === '0') throw new Error('hex number with leading zero digits')
  if (digits.length > 64) throw new Error('hex number > 256 bits')
  if (!/^[0-9a-fA-F]+$/.test(digits)) throw new Error('invalid hex string')
  return BigInt('0x' + digits)
}
