/**
 * Signing with the node's own accounts (geth: internal/ethapi/api.go PersonalAccountAPI and TransactionAPI
 * SendTransaction / SignTransaction / Sign, accounts/accounts.go TextHash): filling, the preconditions of
 * signing, the fee cap, the per-sender nonce lock and the wiping of decrypted keys.
 */
import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex, hashPersonalMessage } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { ethAddress, signHash } from '../../avalanche/signature.js'
import { AccountError } from './accountError.js'
import type { AccountManager } from './accounts.js'
import { EngineError } from '../base/errors.js'
import { type FillSource, fillTransaction } from './fillTransaction.js'
import { feeCaps } from '../chain/feeCaps.js'
import { checkTxFee } from '../pool/txValidation.js'
import type { CallRequest } from '../base/types.js'

const ZERO_ADDRESS = new Uint8Array(20)

/** Where a signing key comes from, and whether it is a decrypted copy to wipe after use (not an unlocked account's). */
export interface KeySource {
  key(): Uint8Array | Promise<Uint8Array>
  readonly wipe: boolean
}

/** Serializes the sends of one sender whose nonce the node picks (geth AddrLocker). */
export class AddrLocker {
  private readonly tails = new Map<string, Promise<void>>()
  async run<T>(addr: string, work: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(addr) ?? Promise.resolve()
    let release!: () => void
    const mine = new Promise<void>((r) => {
      release = r
    })
    const tail = prev.then(() => mine)
    this.tails.set(addr, tail)
    await prev
    try {
      return await work()
    } finally {
      release()
      if (this.tails.get(addr) === tail) this.tails.delete(addr)
    }
  }
}

/** Runs `use` with the key, then wipes it when it is a decrypted copy. */
async function withKey<T>(source: KeySource, use: (key: Uint8Array) => T | Promise<T>): Promise<T> {
  const key = await source.key()
  try {
    return await use(key)
  } finally {
    if (source.wipe) key.fill(0)
  }
}

/** personal_ecRecover: the signer of an EIP-191 signature with V 27/28, lowercase. */
export function ecRecover(data: Uint8Array, sig: Uint8Array): string {
  if (sig.length !== 65) throw new EngineError('signature must be 65 bytes long')
  if (sig[64] !== 27 && sig[64] !== 28) throw new EngineError('invalid Ethereum signature (V is not 27 or 28)')
  try {
    // crypto.SigToPub: libsecp256k1's recovery (a high S recovers too).
    return bytesToHex(ethAddress(secp256k1.recoverPublicKey(Uint8Array.of(sig[64]! - 27, ...sig.subarray(0, 64)), hashPersonalMessage(data), { prehash: false })))
  } catch {
    throw new EngineError('recovery failed')
  }
}

/** The private key of personal_importRawKey: hex, with or without 0x (geth crypto.HexToECDSA's texts). */
export function parseRawKey(hexKey: string): Buffer {
  const body = hexKey.replace(/^0x/i, '')
  const bad = body.match(/[^0-9a-fA-F]/)
  if (bad !== null) throw new AccountError(`invalid hex character ${JSON.stringify(bad[0])} in private key`)
  if (body.length % 2 !== 0) throw new AccountError('invalid hex data for private key')
  return Buffer.from(body, 'hex')
}

/** What signing and sending reach in the engine (src/engine/engine.ts serves it). */
export interface SignerEngine extends FillSource {
  sendRawTransaction(raw: Uint8Array): Promise<string>
}

/** Signs and sends with the accounts of `accounts`; one per namespace table set. */
export class AccountSigner {
  private readonly nonceLock = new AddrLocker()

  /** `feeCapEther`: rpc-tx-fee-cap (0 = no cap). */
  constructor(
    private readonly engine: SignerEngine,
    readonly accounts: AccountManager,
    private readonly feeCapEther: number,
  ) {}

  /** personal_importRawKey: stores the key under `password`; its address. The parsed key is wiped. */
  async importRawKey(hexKey: string, password: string): Promise<string> {
    const key = parseRawKey(hexKey)
    return withKey({ key: () => key, wipe: true }, (k) => this.accounts.importKey(k, password))
  }

  /** eth_sign / personal_sign: geth accounts.TextHash signed, V as 27/28. */
  signText(data: Uint8Array, source: KeySource): Promise<string> {
    return withKey(source, (key) => {
      const sig = signHash(key, hashPersonalMessage(data))
      sig[64]! += 27
      return bytesToHex(sig)
    })
  }

  /**
   * SendTransaction: fills (geth's defaults), signs, submits; the pool's checks (the fee cap among them)
   * follow. Sends whose nonce the node picks run one at a time per sender.
   */
  sendTransaction(req: CallRequest, source: KeySource): Promise<string> {
    const from = req.from ?? ZERO_ADDRESS
    const work = async (): Promise<string> => {
      const tx = await fillTransaction(this.engine, { ...req, from })
      return withKey(source, (key) => this.engine.sendRawTransaction(tx.sign(key).serialize()))
    }
    return req.nonce === undefined ? this.nonceLock.run(Buffer.from(from).toString('hex'), work) : work()
  }

  /** SignTransaction's preconditions (eth_ and personal_ alike). */
  checkSignArgs(req: CallRequest): void {
    if (req.gas === undefined) throw new EngineError('gas not specified')
    if (req.gasPrice === undefined && (req.maxFeePerGas === undefined || req.maxPriorityFeePerGas === undefined)) {
      throw new EngineError('missing gasPrice or maxFeePerGas/maxPriorityFeePerGas')
    }
    if (req.nonce === undefined) throw new EngineError('nonce not specified')
  }

  /** SignTransaction: filled, checked against the fee cap, signed; not submitted. */
  async signTransaction(req: CallRequest, source: KeySource): Promise<TypedTransaction> {
    const tx = await fillTransaction(this.engine, { ...req, from: req.from ?? ZERO_ADDRESS })
    checkTxFee(feeCaps(tx).feeCap, tx.gasLimit, this.feeCapEther)
    return withKey(source, (key) => tx.sign(key))
  }
}
