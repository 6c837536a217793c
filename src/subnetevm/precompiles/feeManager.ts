import { type FeeConfig, type PartialFeeConfig, verifyFeeConfig } from '../feeConfig.js'
import { addressWord, concatBytes, eventTopic, formatAddress, selectorOf, unpackWords, word, wordValue } from './abi.js'
import { allowListFunctions } from './allowList.js'
import { ERR_OUT_OF_GAS, ERR_WRITE_PROTECTION, type FunctionContext, type FunctionOutcome, type PrecompileFunction } from './contract.js'
import { FEE_CONFIG_FIELDS, GAS } from './gas.js'
import { FEE_MANAGER_ADDRESS } from './modules.js'
import { isEnabledRole, roleOf } from './roles.js'
import type { PrecompileState } from './state.js'

/*
 * The fee manager (subnet-evm precompile/contracts/feemanager/contract.go, event.go): the fee config
 * in eight slots of the precompile (keys 0x01.. to 0x08..) and the block it last changed in (key
 * "lca"); setFeeConfig for an Enabled, Manager or Admin caller, logging FeeConfigChanged from Durango.
 */

/** The fields in storage order (slot i + 1) and in the ABI's order. */
const FIELDS = ['gasLimit', 'targetBlockRate', 'minBaseFee', 'targetGas', 'baseFeeChangeDenominator', 'minBlockGasCost', 'maxBlockGasCost', 'blockGasCostStep'] as const
const UINT64_MASK = (1n << 64n) - 1n
const ascii = (s: string): Uint8Array => {
  const key = new Uint8Array(32)
  key.set(new TextEncoder().encode(s))
  return key
}
/** common.Hash{byte(i)}: the slot of field i (from 1). */
const fieldSlot = (i: number): Uint8Array => {
  const key = new Uint8Array(32)
  key[0] = i
  return key
}
const LAST_CHANGED_AT_SLOT = ascii('lca')

const TUPLE = `(${FIELDS.map(() => 'uint256').join(',')})`
/** FeeConfigChanged(address indexed sender, FeeConfig oldFeeConfig, FeeConfig newFeeConfig). */
export const FEE_CONFIG_CHANGED_TOPIC = eventTopic(`FeeConfigChanged(address,${TUPLE},${TUPLE})`)

/** GetStoredFeeConfig: the stored config (zeros before any store); targetBlockRate keeps its low 64 bits. */
export async function getStoredFeeConfig(state: PrecompileState): Promise<FeeConfig> {
  const out = {} as FeeConfig
  for (const [i, field] of FIELDS.entries()) {
    const value = wordValue(await state.getStorage(FEE_MANAGER_ADDRESS, fieldSlot(i + 1)))
    out[field] = field === 'targetBlockRate' ? value & UINT64_MASK : value
  }
  return out
}

/** GetFeeConfigLastChangedAt: the block number of the last store (0 before any). */
export async function getFeeConfigLastChangedAt(state: PrecompileState): Promise<bigint> {
  return wordValue(await state.getStorage(FEE_MANAGER_ADDRESS, LAST_CHANGED_AT_SLOT))
}

/** StoreFeeConfig: verifies, then stores the config and `blockNumber`; the error text when it does not verify. */
export async function storeFeeConfig(state: PrecompileState, config: PartialFeeConfig, blockNumber: bigint): Promise<string | undefined> {
  const invalid = verifyFeeConfig(config)
  if (invalid !== undefined) return `cannot verify fee config: ${invalid}`
  const full = config as FeeConfig
  for (const [i, field] of FIELDS.entries()) await state.putStorage(FEE_MANAGER_ADDRESS, fieldSlot(i + 1), word(full[field]))
  await state.putStorage(FEE_MANAGER_ADDRESS, LAST_CHANGED_AT_SLOT, word(blockNumber))
  return undefined
}

/** The config as eight ABI words (getFeeConfig's output, one tuple of the event's data). */
export function packFeeConfig(config: FeeConfig): Uint8Array {
  return concatBytes(...FIELDS.map((field) => word(config[field])))
}

async function setFeeConfig(ctx: FunctionContext): Promise<FunctionOutcome> {
  if (!ctx.gas.charge(GAS.setFeeConfig)) return { error: ERR_OUT_OF_GAS }
  if (ctx.readOnly) return { error: ERR_WRITE_PROTECTION }
  // Before Durango the input is exactly the eight words.
  if (!ctx.durango && BigInt(ctx.input.length) !== 32n * FEE_CONFIG_FIELDS) return { error: `invalid input length for fee config Input: ${ctx.input.length}` }
  const unpacked = unpackWords(ctx.input, FIELDS.length)
  if ('error' in unpacked) return { error: `failed to unpack input: ${unpacked.error}` }
  const config = {} as FeeConfig
  // The ABI's uint256 targetBlockRate becomes a uint64 (big.Int.Uint64: the low 64 bits).
  for (const [i, field] of FIELDS.entries()) config[field] = field === 'targetBlockRate' ? unpacked.words[i]! & UINT64_MASK : unpacked.words[i]!
  if (!isEnabledRole(await roleOf(ctx.state, FEE_MANAGER_ADDRESS, ctx.caller))) return { error: `non-enabled cannot change fee config: ${formatAddress(ctx.caller)}` }
  const logs = []
  if (ctx.durango) {
    if (!ctx.gas.charge(GAS.feeConfigChangedEvent)) return { error: ERR_OUT_OF_GAS }
    const old = await getStoredFeeConfig(ctx.state)
    logs.push({ address: FEE_MANAGER_ADDRESS, topics: [FEE_CONFIG_CHANGED_TOPIC, addressWord(ctx.caller)], data: concatBytes(packFeeConfig(old), packFeeConfig(config)) })
  }
  const invalid = await storeFeeConfig(ctx.state, config, ctx.blockNumber)
  if (invalid !== undefined) return { error: invalid }
  return { returnData: new Uint8Array(0), logs }
}

async function getFeeConfig(ctx: FunctionContext): Promise<FunctionOutcome> {
  if (!ctx.gas.charge(GAS.getFeeConfig)) return { error: ERR_OUT_OF_GAS }
  return { returnData: packFeeConfig(await getStoredFeeConfig(ctx.state)), logs: [] }
}

async function getFeeConfigLastChangedAtFn(ctx: FunctionContext): Promise<FunctionOutcome> {
  if (!ctx.gas.charge(GAS.getFeeConfigLastChangedAt)) return { error: ERR_OUT_OF_GAS }
  return { returnData: word(await getFeeConfigLastChangedAt(ctx.state)), logs: [] }
}

export const FEE_MANAGER_FUNCTIONS: readonly PrecompileFunction[] = [
  ...allowListFunctions(FEE_MANAGER_ADDRESS),
  { selector: selectorOf('getFeeConfig()'), run: getFeeConfig },
  { selector: selectorOf('getFeeConfigLastChangedAt()'), run: getFeeConfigLastChangedAtFn },
  { selector: selectorOf(`setFeeConfig(${FIELDS.map(() => 'uint256').join(',')})`), run: setFeeConfig },
]
