import { EVMError, type ExecResult, type PrecompileInput } from '@ethereumjs/evm'
import { Address, hexToBytes } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import type { SubnetEvmRules } from '../rules/subnetEvmRules.js'
import { precompileState } from '../state/precompileState.js'
import { deployNotAllowedError, isDeployAllowed } from '../../subnetevm/precompiles/allowListGates.js'
import { runStatefulPrecompile } from '../../subnetevm/precompiles/runStatefulPrecompile.js'

/*
 * subnet-evm's stateful precompiles (src/subnetevm/precompiles) in ethereumjs: each address the
 * chain's schedule ever enables is a custom precompile that asks, per call, whether it is enabled at
 * the block's time (else it answers as the empty account it then is), and runs with the message's
 * caller and static flag and the VM's state; creations check the deployer allow list against
 * tx.origin (subnet-evm params/hooks_libevm.go CanCreateContract).
 */

interface Message {
  caller: Address
  to?: Address
  codeAddress: Address
  isStatic: boolean
  gasLimit: bigint
}

interface RunningEvm {
  /** A CREATE this hook refused: no frame to trace. */
  createRefused?: boolean
  runCall(opts: { message?: Message }): Promise<unknown>
  _executeCall(message: Message): Promise<unknown>
  _executeCreate(message: Message): Promise<unknown>
  _block?: { header: { number: bigint; timestamp: bigint } }
  _tx?: { origin: Address }
  stateManager: Parameters<typeof precompileState>[0]
}

const EMPTY = new Uint8Array(0)

/** The block a running EVM executes in (ethereumjs keeps the one runCall was given). */
function blockOf(evm: RunningEvm): { number: bigint; time: bigint } {
  const header = evm._block?.header
  return { number: header?.number ?? 0n, time: header?.timestamp ?? 0n }
}

/** ethereumjs's view: the customPrecompiles entries, the addresses (hex without 0x) that stay cold, and the wrap of the VM they run in. */
export function subnetEvmForEthereumjs(rules: SubnetEvmRules): {
  customPrecompiles: { address: Address; function: (input: PrecompileInput) => Promise<ExecResult> }[]
  addresses: string[]
  attach(vm: VM): void
} {
  let current: Message | undefined
  const scheduled = rules.scheduledStateful()
  const run = async (addressHex: string, input: PrecompileInput): Promise<ExecResult> => {
    const evm = input._EVM as unknown as RunningEvm
    const { number, time } = blockOf(evm)
    const key = rules.statefulAt(time).get(addressHex)
    const m = current
    if (key === undefined || m === undefined) return { returnValue: EMPTY, executionGasUsed: 0n }
    const callType = m.to !== undefined && !m.to.equals(m.codeAddress) ? 'DELEGATECALL' : m.isStatic ? 'STATICCALL' : 'CALL'
    const upgrades = rules.upgradesAt(time)
    const r = await runStatefulPrecompile(
      key,
      {
        caller: m.caller.bytes,
        address: hexToBytes(`0x${addressHex}`),
        data: input.data,
        gas: input.gasLimit,
        isStatic: m.isStatic,
        callType,
        blockNumber: number,
        blockTime: time,
        rules: { durango: upgrades.isDurango, granite: upgrades.isGranite },
      },
      precompileState(evm.stateManager),
    )
    if (r.error !== undefined) {
      return { returnValue: EMPTY, executionGasUsed: input.gasLimit, exceptionError: new EVMError((r.revert ? EVMError.errorMessages.REVERT : r.error) as never) }
    }
    return { returnValue: r.returnData, executionGasUsed: input.gasLimit - r.gasLeft, logs: r.logs.map((l) => [l.address, l.topics, l.data]) } as ExecResult
  }
  return {
    customPrecompiles: [...scheduled.keys()].map((hex) => ({ address: new Address(hexToBytes(`0x${hex}`)), function: (input: PrecompileInput) => run(hex, input) })),
    addresses: [...scheduled.keys()],
    attach(vm: VM): void {
      const evm = vm.evm as unknown as RunningEvm
      const execute = evm._executeCall
      evm._executeCall = function (this: RunningEvm, message) {
        current = message
        return execute.call(this, message)
      }
      if (!rules.everEnables('contractDeployerAllowListConfig')) return
      /** The refused creation's result: the frame's gas all used, nothing moved (libevm core/vm/evm.go create: after the nonce, before the snapshot). */
      const refusal = async (self: RunningEvm, message: Message) => {
        const origin = self._tx?.origin ?? message.caller
        if (!rules.isEnabled('contractDeployerAllowListConfig', blockOf(self).time) || (await isDeployAllowed(precompileState(self.stateManager), origin.bytes))) return undefined
        return { execResult: { returnValue: EMPTY, executionGasUsed: message.gasLimit, exceptionError: new EVMError(deployNotAllowedError(origin.bytes) as never) } }
      }
      // A CREATE or CREATE2 is refused before its frame starts: a tracer sees no frame for it, as in libevm, where the check precedes the tracer's OnEnter.
      const runCall = evm.runCall
      evm.runCall = async function (this: RunningEvm, opts) {
        const message = opts.message
        const refused = message !== undefined && message.to === undefined ? await refusal(this, message) : undefined
        if (refused === undefined) return runCall.call(this, opts)
        // Read by the tracer (tracing/evmHooks.ts), which would otherwise show the creation as one that failed early.
        this.createRefused = true
        return refused
      }
      const create = evm._executeCreate
      evm._executeCreate = async function (this: RunningEvm, message) {
        return (await refusal(this, message)) ?? create.call(this, message)
      }
    },
  }
}
