import type { Common } from '@ethereumjs/common'
import { paramsTx } from '@ethereumjs/tx'
import { Account, Address, KECCAK256_NULL, MAX_INTEGER, MAX_UINT64, bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util'
import { type EvmRules, chargedGas } from './evmRules.js'
import { runMessage } from './runMessage.js'
import type { EvmBlock, EvmHost, EvmLog, EvmMessage, EvmResult, EvmState, EvmStateChanges } from './types.js'

/*
 * A whole transaction around runMessage, as @ethereumjs/vm's runTx does it on a Cancun chain: the
 * checks that reject it, the gas bought up front, the message, the refund cap (EIP-3529's, or none
 * under coreth's rules: EvmRules.refundQuotient), the sender's refund of unused gas, the priority fee
 * to the coinbase and the removal of touched empty accounts (EIP-161). Nothing is written: the caller applies `changes` to its state.
 */

/** A signed transaction's fields (the sender already recovered), in the block it runs in. */
export interface EvmTransaction {
  /** The sender, 20 bytes. */
  from: Uint8Array
  nonce: bigint
  /** 20 bytes; undefined for a creation. */
  to: Uint8Array | undefined
  value: bigint
  data: Uint8Array
  gasLimit: bigint
  /** Legacy and EIP-2930 transactions. */
  gasPrice?: bigint
  /** EIP-1559 and blob transactions. */
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  accessList?: [Uint8Array, Uint8Array[]][]
  /** Blob transactions: the versioned hashes and the blob fee cap. */
  blobHashes?: Uint8Array[]
  maxFeePerBlobGas?: bigint
  block: EvmBlock
  /** Skip EIP-3607's refusal of a sender with code (an impersonated sender: anvil's disable_eip3607). */
  senderMayHaveCode?: boolean
  /** EvmMessage.chainPrecompiles */
  chainPrecompiles?: EvmMessage['chainPrecompiles']
  /** Added to the intrinsic gas (an Avalanche chain prices Warp predicates in place of their access-list tuples). */
  intrinsicGasAdjustment?: bigint
}

/** What the transaction did, as runTx reports it. */
export interface EvmTransactionResult {
  /** Gas the sender paid for, the refund taken off (the receipt's gasUsed). */
  gasUsed: bigint
  /** The refund granted, after the cap. */
  gasRefund: bigint
  /** Blob gas paid for (EIP-4844). */
  blobGasUsed: bigint
  /** What the coinbase was credited: gas used times the priority fee (runTx's minerValue). */
  minerValue: bigint
  logs: EvmLog[]
  /** The top-level message's failure, as EvmResult.error names it. */
  error?: string
  /** The message's own result (its changes are folded into `changes`). */
  message: EvmResult
  /** Every effect on state, the sender's and the coinbase's accounts included. */
  changes: EvmStateChanges
}

/** A transaction the block could not include (runTx throws these): nothing of it runs. */
export class InvalidTransactionError extends Error {
  override name = 'InvalidTransactionError'
}

interface TxParams {
  txGas: bigint
  txCreationGas: bigint
  txDataZeroGas: bigint
  txDataNonZeroGas: bigint
  accessListAddressGas: bigint
  accessListStorageKeyGas: bigint
  initCodeWordGas: bigint
  maxInitCodeSize: bigint
  blobGasPerBlob: bigint
  maxBlobGasPerBlock: bigint
}

const txParamsOf = new WeakMap<Common, TxParams>()

// The transaction library's parameters are not in the EVM's Common (rules.common); read them once per Common.
function txParams(common: Common): TxParams {
  const hit = txParamsOf.get(common)
  if (hit !== undefined) return hit
  const c = common.copy()
  c.updateParams(paramsTx)
  const names = Object.keys({
    txGas: 0,
    txCreationGas: 0,
    txDataZeroGas: 0,
    txDataNonZeroGas: 0,
    accessListAddressGas: 0,
    accessListStorageKeyGas: 0,
    initCodeWordGas: 0,
    maxInitCodeSize: 0,
    blobGasPerBlob: 0,
    maxBlobGasPerBlock: 0,
  } satisfies Record<keyof TxParams, 0>) as (keyof TxParams)[]
  const params = Object.fromEntries(names.map((name) => [name, c.param(name)])) as unknown as TxParams
  txParamsOf.set(common, params)
  return params
}

/** The gas a transaction pays before its message runs (ethereumjs getIntrinsicGas on Cancun). */
export function intrinsicGas(rules: EvmRules, tx: Pick<EvmTransaction, 'to' | 'data' | 'accessList'>): bigint {
  const p = txParams(rules.common)
  let gas = p.txGas
  for (const byte of tx.data) gas += byte === 0 ? p.txDataZeroGas : p.txDataNonZeroGas
  if (tx.to === undefined) gas += p.txCreationGas + p.initCodeWordGas * BigInt(Math.ceil(tx.data.length / 32))
  for (const [, slots] of tx.accessList ?? []) gas += p.accessListAddressGas + p.accessListStorageKeyGas * BigInt(slots.length)
  return gas
}

/** EIP-4844's shape of a blob transaction: a call carrying 1 to 6 hashes of version 1. */
function checkBlobs(rules: EvmRules, tx: EvmTransaction): void {
  const hashes = tx.blobHashes ?? []
  const p = txParams(rules.common)
  const max = p.maxBlobGasPerBlock / p.blobGasPerBlob
  if (tx.to === undefined) throw new InvalidTransactionError('a blob transaction cannot create a contract')
  if (hashes.length === 0 || BigInt(hashes.length) > max) throw new InvalidTransactionError(`a blob transaction carries 1 to ${max} blobs, not ${hashes.length}`)
  if (hashes.some((h) => h.length !== 32 || h[0] !== 1)) throw new InvalidTransactionError('a blob versioned hash is not of version 1')
}

/** A state that answers `overrides` for the accounts it holds and `state` for the rest. */
function withAccounts(state: EvmState, overrides: Map<string, Account>): EvmState {
  return {
    getAccount: async (address: Address) => overrides.get(bytesToUnprefixedHex(address.bytes)) ?? state.getAccount(address),
    getStorage: (address, key) => state.getStorage(address, key),
    getCode: (address) => state.getCode(address),
  }
}

/**
 * Runs `tx` on `state` as runTx does; throws InvalidTransactionError, having changed nothing, for a
 * transaction the block could not include (the transaction classes' checks, then runTx's in its order).
 */
export async function runTransaction(rules: EvmRules, state: EvmState, host: EvmHost, tx: EvmTransaction): Promise<EvmTransactionResult> {
  const p = txParams(rules.common)
  const { block } = tx
  const reject = (why: string): never => {
    throw new InvalidTransactionError(why)
  }
  // What ethereumjs's transaction classes refuse to build: a nonce at the EIP-2681 limit, a fee times gas past 2^256, a malformed blob list.
  if (tx.nonce >= MAX_UINT64) reject(`nonce ${tx.nonce} at or above 2^64-1 (EIP-2681)`)
  if (tx.gasLimit * (tx.maxFeePerGas ?? tx.gasPrice ?? 0n) > MAX_INTEGER) reject('gas limit times fee cap above 2^256-1')
  if (tx.blobHashes !== undefined) checkBlobs(rules, tx)
  if (tx.gasLimit > block.gasLimit) reject('tx has a higher gas limit than the block')
  if (tx.to === undefined && BigInt(tx.data.length) > p.maxInitCodeSize) reject(`initcode of ${tx.data.length} bytes exceeds the limit of ${p.maxInitCodeSize} (EIP-3860)`)
  const intrinsic = intrinsicGas(rules, tx) + (tx.intrinsicGasAdjustment ?? 0n)
  if (tx.gasLimit < intrinsic) reject(`intrinsic gas too low: ${tx.gasLimit} < ${intrinsic}`)

  const dynamic = tx.maxFeePerGas !== undefined
  const maxFee = tx.maxFeePerGas ?? tx.gasPrice ?? 0n
  const maxPriority = tx.maxPriorityFeePerGas ?? maxFee
  if (maxPriority > maxFee) reject('max priority fee per gas above the max fee per gas')
  if (maxFee < block.baseFee) reject(`fee cap ${maxFee} below the block's base fee ${block.baseFee}`)

  const sender = new Address(tx.from)
  const senderHex = bytesToUnprefixedHex(tx.from)
  const from = (await state.getAccount(sender)) ?? new Account()
  if (tx.senderMayHaveCode !== true && !equalsBytes(from.codeHash, KECCAK256_NULL)) reject('sender has code (EIP-3607)')
  const blobGas = p.blobGasPerBlob * BigInt(tx.blobHashes?.length ?? 0)
  // The upfront check at the fee cap (EIP-1559), the blob gas at its cap (EIP-4844), then the nonce.
  const maxCost = tx.gasLimit * maxFee + tx.value + blobGas * (tx.maxFeePerBlobGas ?? 0n)
  if (from.balance < maxCost) reject(`insufficient funds: balance ${from.balance} < ${maxCost}`)
  if (tx.blobHashes !== undefined && (tx.maxFeePerBlobGas ?? 0n) < block.blobBaseFee) reject(`blob fee cap below the block's blob base fee ${block.blobBaseFee}`)
  if (from.nonce !== tx.nonce) reject(`nonce ${tx.nonce}, the sender's is ${from.nonce}`)

  const priorityFee = dynamic ? (maxPriority < maxFee - block.baseFee ? maxPriority : maxFee - block.baseFee) : maxFee - block.baseFee
  const gasPrice = block.baseFee + priorityFee
  // Gas (and blob gas) bought up front; the nonce bumped here, so the message runs with skipNonceIncrement.
  const paid = new Account(from.nonce + 1n, from.balance - tx.gasLimit * gasPrice - blobGas * block.blobBaseFee, from.storageRoot, from.codeHash)
  const message = await runMessage(rules, withAccounts(state, new Map([[senderHex, paid]])), host, {
    caller: tx.from,
    to: tx.to,
    value: tx.value,
    data: tx.data,
    gasLimit: tx.gasLimit - intrinsic,
    gasPrice,
    block,
    blobHashes: tx.blobHashes,
    accessList: tx.accessList,
    chainPrecompiles: tx.chainPrecompiles,
    skipNonceIncrement: true,
  })

  let gasUsed = intrinsic + message.executionGasUsed
  const cap = gasUsed / rules.refundQuotient
  const gasRefund = message.gasRefund < cap ? message.gasRefund : cap
  gasUsed = chargedGas(gasUsed - gasRefund, tx.gasLimit, rules.minChargeDivisor)

  const accounts = new Map(message.changes.accounts)
  const after = accounts.has(senderHex) ? accounts.get(senderHex) : paid
  if (after !== null && after !== undefined) {
    accounts.set(senderHex, new Account(after.nonce, after.balance + (tx.gasLimit - gasUsed) * gasPrice, after.storageRoot, after.codeHash))
  }
  const minerValue = gasUsed * (rules.baseFeeToCoinbase ? gasPrice : priorityFee)
  const coinbaseHex = bytesToUnprefixedHex(block.coinbase)
  // An account that self-destructed in its creating transaction (null) stays deleted, the fee lost with it, as in runTx.
  if (accounts.get(coinbaseHex) !== null) {
    const coinbase = accounts.get(coinbaseHex) ?? (await state.getAccount(new Address(block.coinbase))) ?? new Account()
    accounts.set(coinbaseHex, new Account(coinbase.nonce, coinbase.balance + minerValue, coinbase.storageRoot, coinbase.codeHash))
  }
  // EIP-161: every account the transaction wrote is touched, and a touched empty account is deleted.
  for (const [address, account] of accounts) if (account?.isEmpty()) accounts.set(address, null)

  return {
    gasUsed,
    gasRefund,
    blobGasUsed: blobGas,
    minerValue,
    logs: message.logs,
    error: message.error,
    message,
    changes: { ...message.changes, accounts },
  }
}
