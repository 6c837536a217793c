/**
 * The P-Chain's Etna dynamic fee (avalanchego vms/platformvm/txs/fee/complexity.go, dynamic_calculator.go,
 * vms/components/gas/{dimensions,gas,state,config}.go; local config genesis/genesis_local.go LocalParams):
 * fee = (complexity · weights) × price, price = fakeExponential(minPrice, excess, excessConversionConstant).
 */
import { VerifyError } from '../avalanche/errors.js'
import type { OutputOwners } from '../avalanche/types.js'
import { PVM_TYPE_ID } from './codec.js'
import type { PVMTransferableInput, PVMTransferableOutput, PVMUnsignedTx } from './tx.js'

const UINT64_MAX = 0xffffffffffffffffn

/** [bandwidth, dbRead, dbWrite, compute] (gas.Dimensions). */
export type Dimensions = [bigint, bigint, bigint, bigint]
export const BANDWIDTH = 0
export const DB_READ = 1
export const DB_WRITE = 2
export const COMPUTE = 3

/** gas.Config; JSON `weights` is an array of numbers. */
export interface GasConfig {
  weights: Dimensions
  maxCapacity: bigint
  maxPerSecond: bigint
  targetPerSecond: bigint
  minPrice: bigint
  excessConversionConstant: bigint
}

/** gas.State. */
export interface GasState {
  capacity: bigint
  excess: bigint
}

/** LocalParams.DynamicFeeConfig (also Fuji's and mainnet's). */
export const LOCAL_FEE_CONFIG: Readonly<GasConfig> = Object.freeze({
  weights: [1n, 1_000n, 1_000n, 4n] as Dimensions,
  maxCapacity: 1_000_000n,
  maxPerSecond: 100_000n,
  targetPerSecond: 50_000n,
  minPrice: 1n,
  excessConversionConstant: 2_164_043n,
})

/** The state a fresh chain starts from (state.go: capacity = maxCapacity, excess 0). */
export function initialFeeState(config: GasConfig = LOCAL_FEE_CONFIG): GasState {
  return { capacity: config.maxCapacity, excess: 0n }
}

function fail(message: string): never {
  throw new VerifyError(message)
}

function add(a: bigint, b: bigint): bigint {
  const s = a + b
  if (s > UINT64_MAX) fail('overflow')
  return s
}

function mul(a: bigint, b: bigint): bigint {
  const p = a * b
  if (p > UINT64_MAX) fail('overflow')
  return p
}

export function addDimensions(...ds: Dimensions[]): Dimensions {
  const out: Dimensions = [0n, 0n, 0n, 0n]
  for (const d of ds) for (let i = 0; i < 4; i++) out[i] = add(out[i]!, d[i]!)
  return out
}

// Intrinsic sizes (complexity.go constants).
const ID_LEN = 32n
const SHORT_ID_LEN = 20n
const INT_LEN = 4n
const LONG_LEN = 8n
const SIGNATURE_LEN = 65n
const INTRINSIC_OUTPUT_BANDWIDTH = ID_LEN + INT_LEN
const INTRINSIC_STAKEABLE_LOCKED_OUTPUT_BANDWIDTH = LONG_LEN + INT_LEN
const INTRINSIC_SECP_OUTPUT_OWNERS_BANDWIDTH = LONG_LEN + INT_LEN + INT_LEN
const INTRINSIC_SECP_OUTPUT_BANDWIDTH = LONG_LEN + INTRINSIC_SECP_OUTPUT_OWNERS_BANDWIDTH
const INTRINSIC_INPUT_BANDWIDTH = ID_LEN + INT_LEN + ID_LEN + INT_LEN + INT_LEN
const INTRINSIC_STAKEABLE_LOCKED_INPUT_BANDWIDTH = LONG_LEN + INT_LEN
const INTRINSIC_SECP_INPUT_BANDWIDTH = INT_LEN + INT_LEN
const INTRINSIC_SECP_TRANSFERABLE_INPUT_BANDWIDTH = LONG_LEN + INTRINSIC_SECP_INPUT_BANDWIDTH
const INTRINSIC_SECP_SIGNATURE_BANDWIDTH = INT_LEN + SIGNATURE_LEN
const INTRINSIC_SECP_SIGNATURE_COMPUTE = 200n

/** IntrinsicBaseTxComplexities: version, typeID, networkID, blockchainID, #outs, #ins, memo length, #creds. */
export const INTRINSIC_BASE_TX_COMPLEXITIES: Dimensions = [2n + INT_LEN + INT_LEN + ID_LEN + INT_LEN + INT_LEN + INT_LEN + INT_LEN, 0n, 0n, 0n]
export const INTRINSIC_IMPORT_TX_COMPLEXITIES: Dimensions = [INTRINSIC_BASE_TX_COMPLEXITIES[0] + ID_LEN + INT_LEN, 0n, 0n, 0n]
export const INTRINSIC_EXPORT_TX_COMPLEXITIES: Dimensions = [INTRINSIC_BASE_TX_COMPLEXITIES[0] + ID_LEN + INT_LEN, 0n, 0n, 0n]
/** IntrinsicCreateSubnetTxComplexities: the owner's typeID, and one DB write (the subnet's owner). */
export const INTRINSIC_CREATE_SUBNET_TX_COMPLEXITIES: Dimensions = [INTRINSIC_BASE_TX_COMPLEXITIES[0] + INT_LEN, 0n, 1n, 0n]

/** OwnerComplexity of a secp256k1fx.OutputOwners: its fields' and addresses' bandwidth. */
export function ownerComplexity(owner: OutputOwners): Dimensions {
  return [add(INTRINSIC_SECP_OUTPUT_OWNERS_BANDWIDTH, mul(BigInt(owner.addrs.length), SHORT_ID_LEN)), 0n, 0n, 0n]
}

/** OutputComplexity of one output: bandwidth of its fields and addresses, one DB write. */
export function outputComplexity(out: PVMTransferableOutput): Dimensions {
  let bandwidth = INTRINSIC_OUTPUT_BANDWIDTH + INTRINSIC_SECP_OUTPUT_BANDWIDTH
  if (out.locktime !== undefined) bandwidth += INTRINSIC_STAKEABLE_LOCKED_OUTPUT_BANDWIDTH
  bandwidth = add(bandwidth, mul(BigInt(out.out.addrs.length), SHORT_ID_LEN))
  return [bandwidth, 0n, 1n, 0n]
}

/** InputComplexity of one input, its credential's signatures included: one DB read and write, 200 compute per sig. */
export function inputComplexity(input: PVMTransferableInput): Dimensions {
  let bandwidth = INTRINSIC_INPUT_BANDWIDTH + INTRINSIC_SECP_TRANSFERABLE_INPUT_BANDWIDTH
  if (input.locktime !== undefined) bandwidth += INTRINSIC_STAKEABLE_LOCKED_INPUT_BANDWIDTH
  const sigs = BigInt(input.in.sigIndices.length)
  bandwidth = add(bandwidth, mul(sigs, INTRINSIC_SECP_SIGNATURE_BANDWIDTH))
  return [bandwidth, 1n, 1n, mul(sigs, INTRINSIC_SECP_SIGNATURE_COMPUTE)]
}

function baseTxComplexity(utx: PVMUnsignedTx): Dimensions {
  const d = addDimensions(...utx.outs.map(outputComplexity), ...utx.ins.map(inputComplexity))
  d[BANDWIDTH] = add(d[BANDWIDTH], BigInt(utx.memo.length))
  return d
}

/** TxComplexity of a BaseTx, ImportTx, ExportTx or CreateSubnetTx. */
export function txComplexity(utx: PVMUnsignedTx): Dimensions {
  const base = baseTxComplexity(utx)
  switch (utx.typeID) {
    case PVM_TYPE_ID.ImportTx:
      return addDimensions(INTRINSIC_IMPORT_TX_COMPLEXITIES, base, ...utx.importedInputs.map(inputComplexity))
    case PVM_TYPE_ID.ExportTx:
      return addDimensions(INTRINSIC_EXPORT_TX_COMPLEXITIES, base, ...utx.exportedOutputs.map(outputComplexity))
    case PVM_TYPE_ID.CreateSubnetTx:
      return addDimensions(INTRINSIC_CREATE_SUBNET_TX_COMPLEXITIES, base, ownerComplexity(utx.owner))
    default:
      return addDimensions(INTRINSIC_BASE_TX_COMPLEXITIES, base)
  }
}

/** Dimensions.ToGas: Σ complexity[i] × weights[i], uint64-checked. */
export function toGas(complexity: Dimensions, weights: Dimensions): bigint {
  let gas = 0n
  for (let i = 0; i < 4; i++) gas = add(gas, mul(complexity[i]!, weights[i]!))
  return gas
}

/** gas.CalculatePrice: minPrice · e^(excess / K) by the Taylor-series fake exponential, capped at MaxUint64. */
export function calculatePrice(minPrice: bigint, excess: bigint, excessConversionConstant: bigint): bigint {
  const denominator = excessConversionConstant
  const maxOutput = denominator * UINT64_MAX
  let output = 0n
  let accum = minPrice * denominator
  for (let i = 1n; accum > 0n; i++) {
    output += accum
    if (output >= maxOutput) return UINT64_MAX
    accum = (accum * excess) / denominator / i
  }
  // denominator 0 with minPrice > 0 cannot happen above (accum would be 0); Go's Div by 0 yields 0.
  return denominator === 0n ? 0n : output / denominator
}

/** The current price of a fee state. */
export function feeStatePrice(state: GasState, config: GasConfig = LOCAL_FEE_CONFIG): bigint {
  return calculatePrice(config.minPrice, state.excess, config.excessConversionConstant)
}

/** The dynamic fee of a tx: gas × price (Gas.Cost, uint64-checked). */
export function calculateFee(utx: PVMUnsignedTx, price: bigint, weights: Dimensions = LOCAL_FEE_CONFIG.weights): bigint {
  return mul(toGas(txComplexity(utx), weights), price)
}

/** State.AdvanceTime: capacity refills at maxPerSecond up to maxCapacity; excess drains at targetPerSecond. */
export function advanceFeeState(state: GasState, seconds: bigint, config: GasConfig = LOCAL_FEE_CONFIG): GasState {
  const addOverTime = (g: bigint, rate: bigint): bigint => {
    const s = g + rate * seconds
    return s > UINT64_MAX ? UINT64_MAX : s
  }
  const sub = (g: bigint, rate: bigint): bigint => {
    const r = rate * seconds
    return r > UINT64_MAX || r > g ? 0n : g - r
  }
  const refilled = addOverTime(state.capacity, config.maxPerSecond)
  return { capacity: refilled < config.maxCapacity ? refilled : config.maxCapacity, excess: sub(state.excess, config.targetPerSecond) }
}

/** State.ConsumeGas: `insufficient capacity: capacity (c) < gas (g)`; excess saturates at MaxUint64. */
export function consumeGas(state: GasState, gas: bigint): GasState {
  if (gas > state.capacity) fail(`insufficient capacity: capacity (${state.capacity}) < gas (${gas})`)
  const excess = state.excess + gas
  return { capacity: state.capacity - gas, excess: excess > UINT64_MAX ? UINT64_MAX : excess }
}

/** `platform.getFeeConfig` reply: gas.Config with JSON numbers, `weights` an array. */
export function feeConfigJSON(config: GasConfig = LOCAL_FEE_CONFIG): {
  weights: number[]
  maxCapacity: number
  maxPerSecond: number
  targetPerSecond: number
  minPrice: number
  excessConversionConstant: number
} {
  return {
    weights: config.weights.map(Number),
    maxCapacity: Number(config.maxCapacity),
    maxPerSecond: Number(config.maxPerSecond),
    targetPerSecond: Number(config.targetPerSecond),
    minPrice: Number(config.minPrice),
    excessConversionConstant: Number(config.excessConversionConstant),
  }
}

/**
 * `platform.getFeeState` reply: {capacity, excess, price} as JSON numbers and `timestamp` (the chain time,
 * RFC 3339 as Go's time.Time marshals it, e.g. `2024-07-15T04:00:00Z`).
 */
export function feeStateJSON(state: GasState, chainTime: Date, config: GasConfig = LOCAL_FEE_CONFIG): { capacity: number; excess: number; price: number; timestamp: string } {
  return {
    capacity: Number(state.capacity),
    excess: Number(state.excess),
    price: Number(feeStatePrice(state, config)),
    timestamp: goTimeJSON(chainTime),
  }
}

/** time.Time.MarshalJSON in UTC: RFC 3339 with the fraction only when non-zero, trailing zeros trimmed. */
export function goTimeJSON(t: Date): string {
  const iso = t.toISOString() // YYYY-MM-DDTHH:MM:SS.mmmZ
  const [head, frac] = iso.slice(0, -1).split('.') as [string, string]
  const trimmed = frac.replace(/0+$/, '')
  return `${head}${trimmed ? '.' + trimmed : ''}Z`
}
