import { EVMError, type ExecResult, type PrecompileInput } from '@ethereumjs/evm'
import { Address } from '@ethereumjs/util'
import type { RunTxOpts, RunTxResult, VM } from '@ethereumjs/vm'
import { runBlockTx } from './impersonatedTx.js'
import type { ChainPrecompile } from '../../evm/types.js'
import type { TypedTransaction } from '@ethereumjs/tx'
import { runWarpPrecompile, WARP_ADDRESS, type WarpChain, type WarpTxContext } from '../../warp/precompile.js'
import { predicateGasAdjustment, predicateResults, warpPredicates } from '../../warp/predicates.js'
import { NATIVE_ASSET_ADDRESSES, deprecatedContract } from './corethPrecompiles.js'

/*
 * The Warp precompile (src/warp/precompile.ts) in both of the node's EVMs. ethereumjs hands a
 * precompile only its input and gas, while Warp's functions need the caller and whether the call is
 * static: the VM's EVM is wrapped to keep the message it is executing (a precompile's message is the
 * last one entered before it runs: it makes no call of its own).
 */

interface ExecutingEvm {
  _executeCall(message: { caller: Address; isStatic: boolean }): Promise<unknown>
}

/**
 * The interpreter's view: the chain's own precompiles for EvmMessage.chainPrecompiles (coreth's
 * deprecated native-asset contracts, and Warp where the chain has it), in a transaction with `tx`'s predicates.
 */
export function chainPrecompiles(warp: WarpChain | undefined, tx?: WarpTxContext): ReadonlyMap<string, ChainPrecompile> {
  const own = new Map<string, ChainPrecompile>(NATIVE_ASSET_ADDRESSES.map((a) => [a, deprecatedContract]))
  if (warp !== undefined) own.set(WARP_ADDRESS, { cold: true, run: (call) => runWarpPrecompile(warp, call, tx) })
  return own
}

/** A block transaction's Warp side: its predicates, their results, and what they change in its intrinsic gas. */
export interface WarpTx {
  context: WarpTxContext
  gasAdjustment: bigint
}

/** The transaction's predicates parsed and verified; undefined without any. Throws PredicateError for one that does not parse (the transaction is invalid). */
export function warpTxOf(warp: WarpChain | undefined, tx: TypedTransaction): WarpTx | undefined {
  const call = 'accessList' in tx ? warpCallOf(warp, tx) : undefined
  if (call === undefined) return undefined
  const { predicates } = call.context
  return { ...call, context: { predicates, results: predicateResults(predicates, warp!.verify ?? (() => false)) } }
}

/**
 * A call's (eth_call, eth_estimateGas) predicates: priced as a transaction's, and every one reads as
 * verified, as in coreth, where a call has no results in its block's header to say otherwise.
 * Throws PredicateError for one that does not parse.
 */
export function warpCallOf(warp: WarpChain | undefined, msg: { accessList?: readonly (readonly [Uint8Array, readonly Uint8Array[]])[] }): WarpTx | undefined {
  if (warp === undefined) return undefined
  const predicates = warpPredicates(msg.accessList)
  if (predicates === undefined) return undefined
  return { context: { predicates, results: new Uint8Array(0) }, gasAdjustment: predicateGasAdjustment(predicates) }
}

/** ethereumjs's runTx of a block's transaction (runBlockTx), with its predicates priced and readable by the Warp precompile. */
export async function runBlockTxWithPredicates(vm: VM, warpTx: WarpTx | undefined, opts: RunTxOpts & { tx: TypedTransaction }): Promise<RunTxResult> {
  if (warpTx === undefined) return runBlockTx(vm, opts)
  setWarpTx(vm, warpTx.context)
  try {
    return await runBlockTx(vm, { ...opts, tx: withIntrinsicGas(opts.tx, warpTx.gasAdjustment) })
  } finally {
    setWarpTx(vm, undefined)
  }
}

/** The predicates ethereumjs's Warp precompile in `vm` reads, for the transaction about to run (undefined after it). */
export function setWarpTx(vm: VM, tx: WarpTxContext | undefined): void {
  const handle = handles.get(vm)
  if (handle !== undefined) handle.tx = tx
}

/**
 * `tx` with its intrinsic gas changed by `delta` (predicate gas in place of EIP-2930's for the Warp
 * tuples), for ethereumjs's runTx, which prices a transaction by its getIntrinsicGas. Transactions
 * are frozen, so it is a view that answers everything else as the transaction does.
 */
export function withIntrinsicGas<T extends { getIntrinsicGas(): bigint }>(tx: T, delta: bigint): T {
  const intrinsic = tx.getIntrinsicGas() + delta
  return new Proxy(tx, {
    get(target, prop) {
      if (prop === 'getIntrinsicGas') return () => intrinsic
      const value = Reflect.get(target, prop, target)
      // The transaction's own properties as they are (a frozen one must be); its class's methods on the transaction itself.
      return typeof value !== 'function' || Object.hasOwn(target, prop) ? value : value.bind(target)
    },
  })
}

const handles = new WeakMap<VM, { tx: WarpTxContext | undefined }>()

/** ethereumjs's view: the customPrecompiles entry for createVM, and the wrap of the VM it was made into (withWarp). */
export function warpForEthereumjs(warp: WarpChain): { customPrecompiles: { address: Address; function: (input: PrecompileInput) => ExecResult }[]; attach(vm: VM): void } {
  let current: { caller: Address; isStatic: boolean } | undefined
  const handle: { tx: WarpTxContext | undefined } = { tx: undefined }
  const fn = (input: PrecompileInput): ExecResult => {
    const m = current
    if (m === undefined) throw new Error('the Warp precompile ran outside a message')
    const r = runWarpPrecompile(warp, { caller: m.caller.bytes, data: input.data, gas: input.gasLimit, isStatic: m.isStatic }, handle.tx)
    return {
      returnValue: r.returnData,
      executionGasUsed: r.gasUsed,
      ...(r.error === undefined ? { logs: r.logs.map((l) => [l.address, l.topics, l.data]) } : { exceptionError: new EVMError(r.error as never) }),
    } as ExecResult
  }
  return {
    customPrecompiles: [{ address: new Address(Uint8Array.from(Buffer.from(WARP_ADDRESS, 'hex'))), function: fn }],
    attach(vm: VM): void {
      handles.set(vm, handle)
      const evm = vm.evm as unknown as ExecutingEvm
      const execute = evm._executeCall
      evm._executeCall = function (this: ExecutingEvm, message) {
        current = message
        return execute.call(this, message)
      }
    },
  }
}
