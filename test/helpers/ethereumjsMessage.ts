import type { Common } from '@ethereumjs/common'
import { type EVMMockBlockchainInterface, createEVM } from '@ethereumjs/evm'
import { Address, bytesToHex, bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util'
import { envBlock, withBlobBaseFee } from '../../src/engine/chain/envBlock.js'
import { OverlayState } from '../../src/engine/state/overlayState.js'
import type { EvmHost, EvmMessage, EvmResult, EvmState } from '../../src/evm/types.js'

/**
 * Runs one message on ethereumjs as the node runs an eth_call today (src/engine/exec/directCall.ts:
 * the warm addresses of EIP-2929/2930/3651, the access-list report) over an OverlayState on `state`,
 * and answers in the interpreter's shape, so a differential test compares like with like. What runTx
 * does after the message and the state can show is done too: the deletion of the accounts that
 * self-destructed in their creating transaction (EIP-6780). `state` is only read.
 */
export async function ethereumjsMessage(common: Common, state: EvmState, host: EvmHost, msg: EvmMessage): Promise<EvmResult> {
  const overlay = new OverlayState(state, () => undefined)
  const blockchain: EVMMockBlockchainInterface = {
    async getBlock(number: number) {
      const hash = await host.blockHash(BigInt(number))
      return { hash: () => hash }
    },
    async putBlock() {},
    shallowCopy: () => blockchain,
  }
  // A copy: each EVM subscribes to its Common's events (src/engine/exec/chainVm.ts).
  const evm = await createEVM({ common: common.copy(), stateManager: overlay, blockchain })
  const { block: b } = msg
  const block = withBlobBaseFee(envBlock(common, { number: b.number, timestamp: b.timestamp, gasLimit: b.gasLimit, baseFee: b.baseFee, coinbase: b.coinbase, mixHash: b.prevRandao }), b.blobBaseFee)
  const journal = evm.journal
  journal.startReportingAccessList()
  for (const [address, slots] of msg.accessList ?? []) {
    const addressHex = bytesToUnprefixedHex(address)
    journal.addAlwaysWarmAddress(addressHex, true)
    for (const slot of slots) journal.addAlwaysWarmSlot(addressHex, bytesToUnprefixedHex(slot), true)
  }
  for (const address of evm.precompiles.keys()) journal.addAlwaysWarmAddress(address)
  journal.addAlwaysWarmAddress(bytesToUnprefixedHex(msg.caller))
  if (msg.to !== undefined) journal.addAlwaysWarmAddress(bytesToUnprefixedHex(msg.to))
  if (common.isActivatedEIP(3651)) journal.addAlwaysWarmAddress(bytesToUnprefixedHex(b.coinbase))
  const { execResult: exec, createdAddress } = await evm.runCall({
    block,
    gasPrice: msg.gasPrice,
    caller: new Address(msg.caller),
    origin: msg.origin === undefined ? undefined : new Address(msg.origin),
    to: msg.to === undefined ? undefined : new Address(msg.to),
    value: msg.value,
    data: msg.data,
    gasLimit: msg.gasLimit,
    skipNonceIncrement: msg.skipNonceIncrement,
    blobVersionedHashes: msg.blobHashes?.map((h) => bytesToHex(h)),
  })
  // runTx's processSelfdestructs under EIP-6780: only an account created in this transaction goes.
  for (const address of [...(exec.selfdestruct?.keys() ?? [])].sort()) {
    if (exec.createdAddresses?.has(address) === true) await journal.deleteAccount(new Address(hexToBytes(address as `0x${string}`)))
  }
  const accessed = journal.accessList ?? new Map<string, Set<string>>()
  return {
    returnData: exec.returnValue,
    executionGasUsed: exec.executionGasUsed,
    gasRefund: exec.gasRefund ?? 0n,
    logs: (exec.logs ?? []).map(([address, topics, data]) => ({ address, topics, data })),
    error: exec.exceptionError?.error,
    // As runCall answers it: a failed creation names its address too (runTx, and geth's receipt, report it).
    createdAddress: createdAddress?.bytes,
    changes: overlay.changes(),
    accessed,
  }
}
