import { RLP } from '@ethereumjs/rlp'
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx'
import { Address, bytesToBigInt, toChecksumAddress, type Account } from '@ethereumjs/util'
import { predicateGasAdjustment, warpPredicates } from '../../warp/predicates.js'
import type { Common } from '@ethereumjs/common'
import { keccak256 } from '../../util/crypto.js'
import { TxRejectedError } from '../base/errors.js'
import { hashHex, isSupportedType, type PendingSpend, type PoolTx, txCost } from './txPool.js'
import { feeCaps } from '../chain/feeCaps.js'
import { minGasForSize } from '../rules/helicon.js'
import { gethTxDecodeError } from './gethTxDecode.js'
import { sealTx } from '../chain/txMemo.js'

/** EIP-3860 initcode limit (2 x 24576). */
const MAX_INITCODE_SIZE = 49152
const WEI_PER_ETHER = 10n ** 18n

export interface AdmissionRules {
  common: Common
  chainId: bigint
  allowUnprotected: boolean
  /** `allow-unprotected-tx-hashes`: transactions (0x hashes) accepted without replay protection all the same. */
  allowUnprotectedHashes?: ReadonlySet<string>
  /** rpc-tx-fee-cap in ether units; 0 = no cap. */
  txFeeCap: number
  blockGasLimit: bigint
  minTip: bigint
  nextBaseFee: bigint
  /** tx-max-size: largest raw transaction in bytes (geth txMaxSize). */
  maxSize: number
  /** The chain prices Warp predicates (it has the Warp precompile). */
  warp: boolean
  /** Helicon's gas-per-byte minimum applies (rules/helicon.ts minGasForSize), against blockGasLimit. */
  gasPerByte?: boolean
}

/**
 * Decodes and checks a raw transaction as geth's SubmitTransaction and txpool.ValidateTransaction
 * do, in their order and wording; state checks (nonce, balance) follow in the pool.
 */
export function admitRawTransaction(raw: Uint8Array, rules: AdmissionRules, arrival: number): PoolTx {
  // geth decodes before its pool checks the size: bytes it cannot decode get the decoder's error.
  if (raw.length > rules.maxSize) throw new TxRejectedError(gethTxDecodeError(raw) ?? `oversized data: transaction size ${raw.length}, limit ${rules.maxSize}`)
  if (raw.length <= 1 || (raw[0]! <= 0x7f && raw[0]! > 0x02)) throw new TxRejectedError(gethTxDecodeError(raw)!)
  let tx: TypedTransaction
  try {
    // Unfrozen until the sender is known, so that the sender and hash admission derives are the ones
    // every later reader gets (sealTx). Init code of any size decodes, as in geth: the pool's own check refuses it in its words.
    tx = createTxFromRLP(raw, { common: rules.common, freeze: false, allowUnlimitedInitCodeSize: true })
  } catch (err) {
    throw decodeError(raw, rules.chainId, err as Error)
  }
  return admitTransaction(tx, rules, arrival, () => recoverSender(tx, raw), raw.length)
}

/** What Warp predicates add to the intrinsic gas; a predicate that does not parse rejects the transaction (coreth IntrinsicGas). */
function warpGas(tx: TypedTransaction, warp: boolean): bigint {
  if (!warp || !('accessList' in tx)) return 0n
  try {
    const predicates = warpPredicates(tx.accessList)
    return predicates === undefined ? 0n : predicateGasAdjustment(predicates)
  } catch (err) {
    throw new TxRejectedError((err as Error).message)
  }
}

/**
 * coreth's UnprotectedAllowed (eth/api_backend.go): the config's switch, its listed hashes, or Nick's
 * method's "predictable pattern" (nonce 0, r == s), how keyless deployments such as Teleporter's are signed.
 */
function unprotectedAllowed(tx: TypedTransaction, rules: AdmissionRules): boolean {
  if (rules.allowUnprotected || rules.allowUnprotectedHashes?.has(hashHex(tx))) return true
  return tx.nonce === 0n && tx.r !== undefined && tx.r === tx.s
}

/**
 * The checks after decoding, in geth's order. `senderOf` recovers the sender and seals the
 * transaction with it (sealTx), or names it: an impersonated sender's transaction has no real
 * signature (src/dev/impersonation.ts).
 */
export function admitTransaction(tx: TypedTransaction, rules: AdmissionRules, arrival: number, senderOf: () => Address, size?: number): PoolTx {
  if (!isSupportedType(tx)) throw new TxRejectedError('transaction type not supported')
  if (rules.gasPerByte) checkGasPerByte(BigInt(size ?? tx.serialize().length), tx.gasLimit, rules.blockGasLimit)
  const { feeCap, tipCap } = feeCaps(tx)
  checkTxFee(feeCap, tx.gasLimit, rules.txFeeCap)
  if (tx.type === 0 && !isProtected(tx) && !unprotectedAllowed(tx, rules)) {
    throw new TxRejectedError('only replay-protected (EIP-155) transactions allowed over RPC')
  }
  if (tx.to === undefined && tx.data.length > MAX_INITCODE_SIZE) {
    // coreth core/txpool/validation.go: a comma before the limit, where the state transition's text has none.
    throw new TxRejectedError(`max initcode size exceeded: code size ${tx.data.length}, limit ${MAX_INITCODE_SIZE}`)
  }
  if (tx.gasLimit > rules.blockGasLimit) throw new TxRejectedError('exceeds block gas limit')
  if (tipCap > feeCap) throw new TxRejectedError(`max priority fee per gas higher than max fee per gas: maxPriorityFeePerGas: ${tipCap}, maxFeePerGas: ${feeCap}`)
  let sender: Address
  try {
    sender = senderOf()
  } catch {
    throw new TxRejectedError('invalid sender')
  }
  const intrinsic = tx.getIntrinsicGas() + warpGas(tx, rules.warp)
  if (tx.gasLimit < intrinsic) throw new TxRejectedError(`intrinsic gas too low: gas ${tx.gasLimit}, minimum needed ${intrinsic}`)
  if (tipCap < rules.minTip) throw new TxRejectedError(`transaction underpriced: gas tip cap ${tipCap}, minimum needed ${rules.minTip}`)
  if (feeCap < rules.nextBaseFee) {
    throw new TxRejectedError(`max fee per gas less than block base fee: address ${toChecksumAddress(sender.toString())}, maxFeePerGas: ${feeCap}, baseFee: ${rules.nextBaseFee}`)
  }
  return { tx, hash: hashHex(tx), sender, senderHex: sender.toString(), nonce: tx.nonce, feeCap, tipCap, arrival }
}

/** saevm's admission rule before the pool's own checks (txgossip addToPool), in its words. */
function checkGasPerByte(size: bigint, gasLimit: bigint, blockGasLimit: bigint): void {
  const min = minGasForSize(size, blockGasLimit)
  if (gasLimit < min) {
    throw new TxRejectedError(`insufficient gas limit for tx size: tx size ${size} bytes must specify gas limit at least ${min} when the block gas limit is ${blockGasLimit}`)
  }
}

/**
 * Recovers the sender once and seals the transaction with it (sealTx): ethereumjs caches the
 * public key and hash only on a frozen transaction and derives the address from the key again (a
 * JS keccak) on every getSenderAddress(). The hash is that of the raw bytes, which decoding
 * accepted only in canonical form.
 */
function recoverSender(tx: TypedTransaction, raw: Uint8Array): Address {
  if (tx.type === 1 || tx.type === 2) {
    const signingHash = typedSigningHash(raw, tx.type === 2 ? 9 : 8)
    ;(tx as { getMessageToVerifySignature: () => Uint8Array }).getMessageToVerifySignature = () => signingHash
  }
  const publicKey = tx.getSenderPublicKey()
  const sender = new Address(keccak256(publicKey).subarray(12))
  tx.cache.senderPubKey = publicKey
  tx.cache.hash = keccak256(raw)
  sealTx(tx, sender, raw)
  return sender
}

/**
 * The hash a typed transaction's signature signs, keccak(type ‖ rlp(its first `fields` fields)),
 * cut from the raw bytes: ethereumjs re-encodes every field for it (about a fifth of admission
 * without the signature recovery). Decoding accepted the bytes only as canonical RLP with
 * canonical fields, so the fields' bytes are the ones re-encoding would give; only the list's
 * length prefix changes (test/unit/engine/pool/txValidation.test.ts compares it with ethereumjs's).
 */
export function typedSigningHash(raw: Uint8Array, fields: number): Uint8Array {
  const start = raw[1]! >= 0xf8 ? 2 + raw[1]! - 0xf7 : 2
  let end = start
  for (let i = 0; i < fields; i++) end += rlpItemLength(raw, end)
  const length = end - start
  const header = length < 56 ? [0xc0 + length] : lengthPrefix(0xf7, length)
  const out = new Uint8Array(1 + header.length + length)
  out[0] = raw[0]!
  out.set(header, 1)
  out.set(raw.subarray(start, end), 1 + header.length)
  return keccak256(out)
}

/** Bytes of the RLP item at `at`, prefix included. */
function rlpItemLength(raw: Uint8Array, at: number): number {
  const b = raw[at]!
  if (b < 0x80) return 1
  if (b <= 0xb7) return 1 + b - 0x80
  if (b < 0xc0) return 1 + b - 0xb7 + bigEndian(raw, at + 1, b - 0xb7)
  if (b <= 0xf7) return 1 + b - 0xc0
  return 1 + b - 0xf7 + bigEndian(raw, at + 1, b - 0xf7)
}

function bigEndian(raw: Uint8Array, at: number, n: number): number {
  let v = 0
  for (let i = 0; i < n; i++) v = v * 256 + raw[at + i]!
  return v
}

/** A long RLP length prefix: `base` + the size of the length, then the length big-endian. */
function lengthPrefix(base: number, length: number): number[] {
  const digits: number[] = []
  for (let v = length; v > 0; v = Math.floor(v / 256)) digits.unshift(v % 256)
  return [base + digits.length, ...digits]
}

/**
 * geth checkTxFee (internal/ethapi/api.go), the one RPCTxFeeCap check of signing and sending: the fee cap
 * times the gas, against `capEther` ether (rpc-tx-fee-cap; 0 = no cap).
 */
export function checkTxFee(feeCap: bigint, gas: bigint, capEther: number): void {
  if (capEther === 0) return
  const fee = feeCap * gas
  const cap = BigInt(Math.round(capEther * 1e6)) * 10n ** 12n
  if (fee > cap) throw new TxRejectedError(`tx fee (${etherString(fee)} ether) exceeds the configured cap (${capEther.toFixed(2)} ether)`)
}

function isProtected(tx: TypedTransaction): boolean {
  const v = (tx as { v?: bigint }).v
  return v !== undefined && v !== 27n && v !== 28n
}

/** ethereumjs decode failures in geth's words: its decoder's error (gethTxDecode.ts), else a foreign chain ID is an invalid sender. */
function decodeError(raw: Uint8Array, chainId: bigint, err: Error): Error {
  const undecodable = gethTxDecodeError(raw)
  if (undecodable !== undefined) return new TxRejectedError(undecodable)
  const foreign = foreignChainId(raw)
  if (foreign !== undefined && foreign !== chainId) {
    return new TxRejectedError(`invalid sender: invalid chain id for signer: have ${foreign} want ${chainId}`)
  }
  if (/high s|s-value/i.test(err.message)) return new TxRejectedError('invalid transaction v, r, s values')
  if (/signature|v value|recover/i.test(err.message)) return new TxRejectedError('invalid sender')
  return new TxRejectedError(`rlp: ${err.message.replace(/ \(.*$/, '')}`)
}

function foreignChainId(raw: Uint8Array): bigint | undefined {
  try {
    if (raw[0]! <= 0x7f) return bytesToBigInt((RLP.decode(raw.subarray(1)) as Uint8Array[])[0]!)
    const fields = RLP.decode(raw) as Uint8Array[]
    const v = bytesToBigInt(fields[6]!)
    return v >= 35n ? (v - 35n) / 2n : undefined
  } catch {
    return undefined
  }
}

function etherString(wei: bigint): string {
  const hundredths = (wei * 100n + WEI_PER_ETHER / 2n) / WEI_PER_ETHER
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}`
}

/**
 * geth ValidateTransactionWithState (core/txpool/validation.go): against the head's account of the
 * sender, nonce first, then the balance against this transaction's cost, then against it plus what
 * the sender's pending (executable) transactions may spend (`spend`: legacypool ExistingExpenditure,
 * and ExistingCost of a replaced one). A queued transaction counts toward neither.
 */
export function checkTxState(ptx: PoolTx, account: Account | undefined, spend?: PendingSpend): void {
  const nonce = account?.nonce ?? 0n
  if (ptx.nonce < nonce) throw new TxRejectedError(`nonce too low: next nonce ${nonce}, tx nonce ${ptx.nonce}`)
  const balance = account?.balance ?? 0n
  const cost = txCost(ptx)
  const funds = 'insufficient funds for gas * price + value: balance'
  if (balance < cost) throw new TxRejectedError(`${funds} ${balance}, tx cost ${cost}, overshot ${cost - balance}`)
  if (spend === undefined) return
  const { spent, replaced } = spend
  if (replaced !== undefined) {
    const bump = cost - replaced
    if (balance < spent + bump) throw new TxRejectedError(`${funds} ${balance}, queued cost ${spent}, tx bumped ${bump}, overshot ${spent + bump - balance}`)
  } else if (balance < spent + cost) {
    throw new TxRejectedError(`${funds} ${balance}, queued cost ${spent}, tx cost ${cost}, overshot ${spent + cost - balance}`)
  }
}
