import type { Common } from '@ethereumjs/common'
import { NobleBN254, type PrecompileFunc, getActivePrecompiles, paramsEVM } from '@ethereumjs/evm'
import type { Op } from './frame.js'
import { type EvmGas, readGas } from './gasParams.js'
import type { Memory } from './memory.js'
import { opcodeTable } from './opcodes/table.js'

/** Everything the interpreter needs of a Common, resolved once. */
export interface EvmRules {
  /** a copy of the Common with the EVM's parameters, for the precompiles */
  readonly common: Common
  readonly chainId: bigint
  readonly gas: EvmGas
  /** A transaction keeps min(refund counter, gasUsed / this) of its gas: EIP-3529's 5, or coreth's "none" (src/engine/rules/chainCommon.ts) */
  readonly refundQuotient: bigint
  /** The coinbase is credited the effective gas price, base fee included (coreth), not the tip alone (geth). */
  readonly baseFeeToCoinbase: boolean
  /** Helicon: a transaction is charged at least ceil(gasLimit / this) gas; 0 = no minimum (minCharge). */
  readonly minChargeDivisor: bigint
  readonly ops: Op[]
  /** by address (hex without 0x) */
  readonly precompiles: Map<string, PrecompileFunc>
  /** what ethereumjs's BN254 precompiles read as their EVM (createEVM's NobleBN254) */
  readonly precompileEvm: unknown
  /** stacks and memories of finished messages, reused by the next */
  readonly pool: { stacks: bigint[][]; mems: Memory[] }[]
}

/**
 * The EIPs this interpreter implements exactly: the ones @ethereumjs/common's Mainnet activates at
 * Cancun, and 7951 (P256VERIFY at 0x100, which src/engine/rules/chainCommon.ts adds).
 */
const COVERED = new Set([
  1, 606, 607, 608, 609, 1013, 1153, 1559, 1679, 1716, 2384, 2565, 2718, 2929, 2930, 3198, 3529, 3541, 3651, 3675, 3855, 3860, 4345, 4399, 4788, 4844, 4895, 5133, 5656, 6780, 7516, 7951,
])
/**
 * Covered whether on or off: a precompile the active set includes or not (getActivePrecompiles reads
 * the Common). Plain Mainnet Cancun, as ethereum/tests fill it, runs without 7951.
 */
const OPTIONAL = new Set([7951])
/** Past the highest EIP number ethereumjs 10 knows. */
const EIP_SCAN_END = 10_000

const resolved = new WeakMap<Common, EvmRules | null>()

/**
 * The rules of `common` when this interpreter runs them exactly: hardfork Cancun with exactly the
 * EIPs of COVERED; undefined otherwise (the engine keeps ethereumjs). Cached per Common.
 */
export function evmRules(common: Common): EvmRules | undefined {
  const hit = resolved.get(common)
  if (hit !== undefined) return hit ?? undefined
  const rules = resolve(common)
  resolved.set(common, rules ?? null)
  return rules
}

function resolve(common: Common): EvmRules | undefined {
  if (common.hardfork() !== 'cancun') return undefined
  for (let eip = 1; eip < EIP_SCAN_END; eip++) if (!OPTIONAL.has(eip) && common.isActivatedEIP(eip) !== COVERED.has(eip)) return undefined
  const c = common.copy()
  // What the EVM's constructor does to its Common (evm.js): its opcodes' fees and precompiles' gas are these.
  c.updateParams(paramsEVM)
  const gas = readGas(c)
  const ops = opcodeTable(gas)
  if (ops === undefined) return undefined
  return {
    common: c,
    chainId: c.chainId(),
    gas,
    refundQuotient: c.param('maxRefundQuotient'),
    baseFeeToCoinbase: creditsBaseFee(c),
    minChargeDivisor: minChargeDivisor(c),
    ops,
    precompiles: getActivePrecompiles(c),
    precompileEvm: { _bn254: new NobleBN254() },
    pool: [],
  }
}

/**
 * Whether the Common's chain credits the coinbase with the base fee too (coreth; the node's own
 * parameter, which only a chain's Common has: src/engine/rules/chainCommon.ts; Common.param throws for a missing one).
 */
export function creditsBaseFee(c: Common): boolean {
  return ownParam(c, 'baseFeeToCoinbase') === 1n
}

/** Helicon's λ of the Common's chain, 0 without a minimum charge (src/engine/rules/chainCommon.ts). */
export function minChargeDivisor(c: Common): bigint {
  return ownParam(c, 'minGasChargeDivisor') ?? 0n
}

/** The gas a transaction is charged: what it used, at least ceil(limit / λ) under Helicon. */
export function chargedGas(used: bigint, gasLimit: bigint, divisor: bigint): bigint {
  if (divisor === 0n) return used
  const min = (gasLimit + divisor - 1n) / divisor
  return used > min ? used : min
}

/** A parameter only a chain's Common has (Common.param throws for a missing one). */
function ownParam(c: Common, name: string): bigint | undefined {
  try {
    return c.param(name)
  } catch {
    return undefined
  }
}
