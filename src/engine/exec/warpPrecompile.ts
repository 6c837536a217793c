import { EVMError, type ExecResult, type PrecompileInput } from '@ethereumjs/evm'
import { Address } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import type { ChainPrecompile } from '../../evm/types.js'
import { runWarpPrecompile, WARP_ADDRESS, type WarpChain } from '../../warp/precompile.js'

/*
 * The Warp precompile (src/warp/precompile.ts) in both of the node's EVMs. ethereumjs hands a
 * precompile only its input and gas, while Warp's functions need the caller and whether the call is
 * static: the VM's EVM is wrapped to keep the message it is executing (a precompile's message is the
 * last one entered before it runs: it makes no call of its own).
 */

interface ExecutingEvm {
  _executeCall(message: { caller: Address; isStatic: boolean }): Promise<unknown>
}

/** The interpreter's view: the chain's own precompiles for EvmMessage.chainPrecompiles. */
export function chainPrecompiles(warp: WarpChain | undefined): ReadonlyMap<string, ChainPrecompile> | undefined {
  if (warp === undefined) return undefined
  return new Map([[WARP_ADDRESS, { run: (call) => runWarpPrecompile(warp, call) }]])
}

/** ethereumjs's view: the customPrecompiles entry for createVM, and the wrap of the VM it was made into (withWarp). */
export function warpForEthereumjs(warp: WarpChain): { customPrecompiles: { address: Address; function: (input: PrecompileInput) => ExecResult }[]; attach(vm: VM): void } {
  let current: { caller: Address; isStatic: boolean } | undefined
  const fn = (input: PrecompileInput): ExecResult => {
    const m = current
    if (m === undefined) throw new Error('the Warp precompile ran outside a message')
    const r = runWarpPrecompile(warp, { caller: m.caller.bytes, data: input.data, gas: input.gasLimit, isStatic: m.isStatic })
    return {
      returnValue: r.returnData,
      executionGasUsed: r.gasUsed,
      ...(r.error === undefined ? { logs: r.logs.map((l) => [l.address, l.topics, l.data]) } : { exceptionError: new EVMError(r.error as never) }),
    } as ExecResult
  }
  return {
    customPrecompiles: [{ address: new Address(Uint8Array.from(Buffer.from(WARP_ADDRESS, 'hex'))), function: fn }],
    attach(vm: VM): void {
      const evm = vm.evm as unknown as ExecutingEvm
      const execute = evm._executeCall
      evm._executeCall = function (this: ExecutingEvm, message) {
        current = message
        return execute.call(this, message)
      }
    },
  }
}
