import { EVMError, type ExecResult } from '@ethereumjs/evm'
import { Address } from '@ethereumjs/util'
import type { ChainPrecompile } from '../../evm/types.js'

/**
 * coreth's native-asset precompiles, deprecated since Banff (every chain here is past it from
 * genesis): the genesis contract's address 0x0100…0000 (also the blackhole coinbase),
 * NativeAssetBalance 0x0100…0001 and NativeAssetCall 0x0100…0002 stay active precompiles whose Run
 * reverts with no data and uses none of the gas it was given (coreth: params/hooks_libevm.go
 * PrecompiledContractsBanff, nativeasset/contract.go DeprecatedContract). Being active, they are warm
 * from a transaction's start (EIP-2929); a value sent with a call to them is sent back by the revert.
 */
export const NATIVE_ASSET_ADDRESSES = ['0100000000000000000000000000000000000000', '0100000000000000000000000000000000000001', '0100000000000000000000000000000000000002'] as const

const EMPTY = new Uint8Array(0)

/** The interpreter's view (EvmMessage.chainPrecompiles). */
export const deprecatedContract: ChainPrecompile = {
  run: () => ({ returnData: EMPTY, gasUsed: 0n, error: EVMError.errorMessages.REVERT, logs: [] }),
}

/** ethereumjs's view: customPrecompiles entries. */
export function deprecatedForEthereumjs(): { address: Address; function: () => ExecResult }[] {
  return NATIVE_ASSET_ADDRESSES.map((hex) => ({
    address: new Address(Uint8Array.from(Buffer.from(hex, 'hex'))),
    function: (): ExecResult => ({ returnValue: EMPTY, executionGasUsed: 0n, exceptionError: new EVMError(EVMError.errorMessages.REVERT) }),
  }))
}

interface MessageEvm {
  _executeCall(message: { to?: Address; codeAddress: Address; gasLimit: bigint }): Promise<unknown>
}

/**
 * ethereumjs's side of coreth's rule for its stateful precompiles since Granite (`addresses`: the
 * deprecated ones and Warp; params/hooks_libevm.go makePrecompile): a DELEGATECALL or CALLCODE to one
 * reverts with no data and uses all the gas it was given (evm/call.ts does the same). ethereumjs hands
 * a precompile no call type, so the VM's EVM is wrapped where it enters each message (a DELEGATECALL's
 * or CALLCODE's message runs at the caller's own address, with the precompile as its code address).
 */
export function guardStatefulPrecompiles(evm: unknown, addresses: readonly string[]): void {
  const stateful = new Set(addresses)
  const e = evm as MessageEvm
  const execute = e._executeCall
  e._executeCall = function (this: MessageEvm, message) {
    const code = message.codeAddress
    if (message.to !== undefined && !code.equals(message.to) && stateful.has(code.toString().slice(2))) {
      return Promise.resolve({ execResult: { returnValue: EMPTY, executionGasUsed: message.gasLimit, exceptionError: new EVMError(EVMError.errorMessages.REVERT) } })
    }
    return execute.call(this, message)
  }
}

/**
 * Precompiles coreth runs but does not list as active (its ActivePrecompiles: the native-asset ones,
 * P256VERIFY and Ethereum's): Warp. A transaction does not start with them warm (EIP-2929), so a
 * first call to Warp pays the cold 2,600. ethereumjs warms whatever its precompile map's entries()
 * and keys() yield (runTx, and directCall.ts): they skip these; lookups and copies see them all.
 */
class ActivePrecompiles extends Map<string, unknown> {
  constructor(
    all: Map<string, unknown>,
    private readonly inactive: ReadonlySet<string>,
  ) {
    super(all)
  }
  override entries(): MapIterator<[string, unknown]> {
    return [...super.entries()].filter(([key]) => !this.inactive.has(key)).values()
  }
  override keys(): MapIterator<string> {
    return [...super.keys()].filter((key) => !this.inactive.has(key)).values()
  }
}

/** ethereumjs's side of the above: `addresses` stay cold at a transaction's start. */
export function coldAtStart(evm: unknown, addresses: readonly string[]): void {
  const e = evm as { _precompiles: Map<string, unknown> }
  e._precompiles = new ActivePrecompiles(e._precompiles, new Set(addresses))
}
