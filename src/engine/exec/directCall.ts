import type { Block as EnvBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { EVMInterface } from '@ethereumjs/evm'
import type { AccessListBytes, TypedTransaction } from '@ethereumjs/tx'
import type { RunTxResult } from '@ethereumjs/vm'
import { type Address, bytesToUnprefixedHex } from '@ethereumjs/util'
import { ExecutionFailedError } from '../base/errors.js'

/** What a call's callers read of its result (estimateGas the refund granted, createAccessList the list). */
export type CallResult = Pick<RunTxResult, 'execResult' | 'totalGasSpent' | 'gasRefund' | 'accessList' | 'createdAddress'>

/**
 * EIPs that change what a transaction does around its message (authorisations, calldata floor,
 * state gas, block access lists, binary trees): on a fork with any of them the call goes through
 * runTx, which knows them. Cancun (the C-Chain's rules) has none.
 */
const TX_LEVEL_EIPS = [7623, 7702, 7864, 7928, 8037, 2780, 7708, 7778]

/** Whether `common`'s fork lets runDirectCall stand in for runTx. */
export function directCallSupported(common: Common): boolean {
  return TX_LEVEL_EIPS.every((eip) => !common.isActivatedEIP(eip))
}

/** What runDirectCall reads of the call's transaction: a TypedTransaction, or messageCall's lighter stand-in. */
export type CallMessage = Pick<TypedTransaction, 'gasLimit' | 'to' | 'value' | 'data' | 'getIntrinsicGas'> & { accessList?: AccessListBytes }

/**
 * The message of a plain call (a `to`, no access list) without building a transaction: the fields
 * runDirectCall reads, with the intrinsic gas of a legacy transaction's getIntrinsicGas (txGas and
 * the calldata's bytes; no creation or access-list part, and the EIPs that add more are the ones
 * directCallSupported excludes), read from `txCommon`, a Common holding the transaction library's
 * parameters (Chain.txCommon). Building a LegacyTx validated and copied every field, a sizeable
 * share of an eth_call (docs/PERFORMANCE.md).
 */
export function messageCall(txCommon: Common, to: Address, gasLimit: bigint, value: bigint, data: Uint8Array): CallMessage {
  return {
    gasLimit,
    to,
    value,
    data,
    getIntrinsicGas() {
      const zero = txCommon.param('txDataZeroGas')
      const nonZero = txCommon.param('txDataNonZeroGas')
      let gas = txCommon.param('txGas')
      for (let i = 0; i < data.length; i++) gas += data[i] === 0 ? zero : nonZero
      return gas
    },
  }
}

/**
 * Runs a call that pays no fee (geth DoCall without fee fields: NoBaseFee, gas price 0) through
 * the EVM's message entry instead of runTx. It does exactly what runTx does that the message can
 * observe or the caller reads (@ethereumjs/vm runTx.js: the intrinsic gas check and charge, the
 * warm addresses of EIP-2929/2930/3651, the refund cap of EIP-3529, the access-list report) and
 * leaves out what it cannot: with a price of 0 the sender's balance does not move, and for a call
 * (not a creation) its nonce is read by nothing the message runs; a creation's nonce is bumped by
 * runCall itself, as runTx would before it. The receipt, bloom, miner credit and the cleanup of
 * touched empty accounts come after the message and are reverted with the call's state unread.
 * The caller runs it on state it reverts afterwards and has checked the sender can pay `value`.
 */
export async function runDirectCall(evm: EVMInterface, tx: CallMessage, caller: Address, block: EnvBlock, reportAccessList: boolean): Promise<CallResult> {
  const journal = evm.journal
  const common = evm.common
  // runTx's journal.cleanup() at the start, but for deleting touched empty accounts: the state is reverted after every call.
  journal.cleanJournal()
  delete journal.accessList
  if (reportAccessList) journal.startReportingAccessList()
  if (tx.accessList !== undefined) {
    for (const [address, slots] of tx.accessList) {
      const addressHex = bytesToUnprefixedHex(address)
      journal.addAlwaysWarmAddress(addressHex, true)
      for (const slot of slots) journal.addAlwaysWarmSlot(addressHex, bytesToUnprefixedHex(slot), true)
    }
  }
  const intrinsic = tx.getIntrinsicGas()
  if (tx.gasLimit < intrinsic) {
    // runTx's INTRINSIC_GAS_TOO_LOW in geth's words (translateRunError's), its figures printed as Numbers as runTx does.
    journal.cleanJournal()
    delete journal.accessList
    throw new ExecutionFailedError(`intrinsic gas too low: have ${Number(tx.gasLimit)}, want ${Number(intrinsic)}`)
  }
  for (const address of evm.precompiles.keys()) journal.addAlwaysWarmAddress(address)
  journal.addAlwaysWarmAddress(caller.toString())
  if (tx.to !== undefined) journal.addAlwaysWarmAddress(bytesToUnprefixedHex(tx.to.bytes))
  if (common.isActivatedEIP(3651)) journal.addAlwaysWarmAddress(bytesToUnprefixedHex(block.header.coinbase.bytes))
  let execResult: RunTxResult['execResult']
  let createdAddress: RunTxResult['createdAddress']
  try {
    const out = await evm.runCall({ block, gasPrice: 0n, caller, gasLimit: tx.gasLimit - intrinsic, to: tx.to, value: tx.value, data: tx.data, skipNonceIncrement: tx.to !== undefined })
    execResult = out.execResult
    createdAddress = out.createdAddress
  } catch (err) {
    // A failure that is not an EVM error (a state read that failed) leaves the message's checkpoints open: close them, as runTx does, so the caller's revert restores its own state.
    const open = journal as unknown as { journalHeight: number }
    while (open.journalHeight > 0) await journal.revert()
    throw err
  } finally {
    // runTx's finally: no warm address or original storage value outlives the transaction.
    journal.cleanJournal()
    evm.stateManager.originalStorageCache.clear()
  }
  const reported = reportAccessList ? accessListOf(journal.accessList) : undefined
  delete journal.accessList
  let totalGasSpent = execResult.executionGasUsed + intrinsic
  // The refund the transaction keeps (geth's ExecutionResult.RefundedGas): none under coreth's rules.
  const counted = execResult.gasRefund ?? 0n
  const cap = totalGasSpent / common.param('maxRefundQuotient')
  const gasRefund = counted < cap ? counted : cap
  totalGasSpent -= gasRefund
  return { execResult, totalGasSpent, gasRefund, accessList: reported, createdAddress }
}

/** runTx's buildAccessListResult. */
function accessListOf(list: Map<string, Set<string>> | undefined): RunTxResult['accessList'] {
  const out: NonNullable<RunTxResult['accessList']> = []
  for (const [address, slots] of list ?? []) out.push({ address: `0x${address}`, storageKeys: [...slots].map((s) => `0x${s}` as const) })
  return out
}
