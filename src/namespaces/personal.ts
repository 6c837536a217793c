import { createTx } from '@ethereumjs/tx'
import type { TypedTransaction } from '@ethereumjs/tx'
import { toChecksumAddress } from '@ethereumjs/util'
import { SigningKey, hashMessage, recoverAddress } from 'ethers'
import { z } from 'zod'
import { AccountError, AccountManager } from '../engine/accounts.js'
import type { Engine } from '../engine/engine.js'
import { EngineError } from '../engine/errors.js'
import type { CallRequest as CallRequestValue } from '../engine/types.js'
import { resolveEthApis } from '../config.js'
import { hex, quantity } from '../rpc/format.js'
import type { Json } from '../rpc/format.js'
import { Address, CallRequest, Data, GoString, GoUint64Number } from '../rpc/schemas.js'
import type { MethodTable, RpcContext } from '../rpc/types.js'
import { inService, inServiceOne, method } from '../rpc/types.js'

/*
 * personal_ (geth/coreth internal/ethapi PersonalAccountAPI, service `internal-personal`) and
 * the account methods of eth_: eth_accounts (EthereumAccountAPI, `internal-account`) and
 * eth_sign, eth_signTransaction, eth_sendTransaction (coreth's TransactionAPI, which this node
 * also gates behind `internal-account`: LIMITS.md E9). Wording follows geth. coreth has no
 * eth_signTypedData_v4 (geth never served it from internal/ethapi), so neither does this node.
 * Params of these methods hold passwords and keys: the dispatcher logs only method, id and ms.
 */

const WEI_PER_ETHER = 10n ** 18n
const ZERO_ADDRESS = new Uint8Array(20)

/** geth common.Address JSON: lowercase hex. */
const lower = (a: Uint8Array | string): string => (typeof a === 'string' ? a.toLowerCase() : hex(a))

/** geth accounts.TextHash + ECDSA, V as 27/28 (personal_sign, eth_sign). */
function signText(key: Uint8Array, data: Uint8Array): string {
  return new SigningKey(key).sign(hashMessage(data)).serialized
}

/** geth hexutil.Big in errors' %v: 0x-hex. */
const big = (v: bigint): string => '0x' + v.toString(16)

/** Serializes the sends of one sender whose nonce the node picks (geth AddrLocker). */
class AddrLocker {
  private readonly tails = new Map<string, Promise<void>>()
  async run<T>(addr: string, work: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(addr) ?? Promise.resolve()
    let release!: () => void
    const mine = new Promise<void>((r) => { release = r })
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

/** geth TransactionArgs.setDefaults (fees, value, nonce and gas estimate at `pending` as eth_fillTransaction, chain ID) and toTransaction. */
async function buildTx(engine: Engine, req: CallRequestValue): Promise<TypedTransaction> {
  const from = req.from ?? ZERO_ADDRESS
  let { gasPrice, maxFeePerGas, maxPriorityFeePerGas } = req
  if (gasPrice === undefined) {
    if (maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined) {
      if (maxFeePerGas === 0n) throw new EngineError('maxFeePerGas must be non-zero')
    } else {
      maxPriorityFeePerGas ??= engine.fees.suggestTipCap()
      maxFeePerGas ??= maxPriorityFeePerGas + 2n * engine.fees.nextBaseFee()
    }
    if (maxFeePerGas < maxPriorityFeePerGas) throw new EngineError(`maxFeePerGas (${big(maxFeePerGas)}) < maxPriorityFeePerGas (${big(maxPriorityFeePerGas)})`)
  } else if (gasPrice === 0n) {
    throw new EngineError('gasPrice must be non-zero after london fork')
  }
  const value = req.value ?? 0n
  // The pool's next nonce, read without the pending-nonce guard (that is for clients' caches).
  const nonce = req.nonce ?? (await engine.poolNonce(from))
  const input = req.input ?? new Uint8Array()
  const to = req.to ?? undefined
  if (to === undefined && input.length === 0) throw new EngineError('contract creation without any data provided')
  // The caller's own fee fields go into the estimate; defaults picked above are for the next block
  // (ACP-176 fees fall with time), which the head's context may not accept (as eth_fillTransaction).
  const estimateReq: CallRequestValue = { from, value, input }
  if (to !== undefined) estimateReq.to = to
  if (req.gasPrice !== undefined) estimateReq.gasPrice = req.gasPrice
  if (req.maxFeePerGas !== undefined) estimateReq.maxFeePerGas = req.maxFeePerGas
  if (req.maxPriorityFeePerGas !== undefined) estimateReq.maxPriorityFeePerGas = req.maxPriorityFeePerGas
  if (req.accessList !== undefined) estimateReq.accessList = req.accessList
  const gas = req.gas ?? (await engine.estimateGas(estimateReq, 'pending'))
  if (req.chainId !== undefined && req.chainId !== engine.chainId) {
    throw new EngineError(`chainId does not match node's (have=${req.chainId}, want=${engine.chainId})`)
  }
  const accessList = (req.accessList ?? []).map((i) => [i.address, i.storageKeys]) as never
  const base = { nonce, gasLimit: gas, to, value, data: input, chainId: engine.chainId }
  const common = engine.txCommon
  // geth toTransaction: 1559 when maxFeePerGas is set, 2930 with an access list, legacy otherwise.
  if (maxFeePerGas !== undefined) return createTx({ ...base, type: 2, maxFeePerGas, maxPriorityFeePerGas: maxPriorityFeePerGas!, accessList }, { common })
  if (req.accessList !== undefined) return createTx({ ...base, type: 1, gasPrice: gasPrice!, accessList }, { common })
  return createTx({ ...base, type: 0, gasPrice: gasPrice! }, { common })
}

/** geth checkTxFee: `tx fee (x ether) exceeds the configured cap (y ether)`. */
function checkTxFee(tx: TypedTransaction, capEther: number): void {
  if (capEther === 0) return
  const price = tx.type === 2 ? (tx as unknown as { maxFeePerGas: bigint }).maxFeePerGas : (tx as unknown as { gasPrice: bigint }).gasPrice
  const fee = price * tx.gasLimit
  const cap = BigInt(Math.round(capEther * 1e6)) * 10n ** 12n
  if (fee > cap) {
    const hundredths = (fee * 100n + WEI_PER_ETHER / 2n) / WEI_PER_ETHER
    throw new EngineError(`tx fee (${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')} ether) exceeds the configured cap (${capEther.toFixed(2)} ether)`)
  }
}

/** geth types.Transaction JSON (transaction_marshalling.go) of a signed transaction. */
export function signedTxJSON(tx: TypedTransaction): Record<string, Json> {
  const t = tx as unknown as { gasPrice?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint; accessList?: [Uint8Array, Uint8Array[]][]; chainId?: bigint }
  const out: Record<string, Json> = { type: quantity(tx.type) }
  const v = tx.v ?? 0n
  if (tx.type !== 0 || (v !== 27n && v !== 28n)) out.chainId = quantity(t.chainId ?? tx.common.chainId())
  out.nonce = quantity(tx.nonce)
  out.to = tx.to === undefined ? null : hex(tx.to.bytes)
  out.gas = quantity(tx.gasLimit)
  if (tx.type === 2) {
    out.maxPriorityFeePerGas = quantity(t.maxPriorityFeePerGas!)
    out.maxFeePerGas = quantity(t.maxFeePerGas!)
  } else {
    out.gasPrice = quantity(t.gasPrice!)
  }
  out.value = quantity(tx.value)
  out.input = hex(tx.data)
  if (tx.type !== 0) out.accessList = (t.accessList ?? []).map(([address, keys]) => ({ address: hex(address), storageKeys: keys.map(hex) }))
  out.v = quantity(v)
  out.r = quantity(tx.r ?? 0n)
  out.s = quantity(tx.s ?? 0n)
  if (tx.type !== 0) out.yParity = quantity(v)
  out.hash = hex(tx.hash())
  return out
}

/** Shared by personal_ and the eth_ account methods. */
function signer(ctx: Pick<RpcContext, 'engine' | 'config' | 'accounts'>) {
  const { engine, accounts } = ctx
  const feeCap = ctx.config.chain['rpc-tx-fee-cap']
  const nonceLock = new AddrLocker()
  /** Fills, signs with the key `keyFor` yields, submits (geth SendTransaction / SubmitTransaction). */
  const send = async (req: CallRequestValue, keyFor: () => Uint8Array | Promise<Uint8Array>, zero: boolean): Promise<string> => {
    const from = req.from ?? ZERO_ADDRESS
    const work = async (): Promise<string> => {
      const tx = await buildTx(engine, { ...req, from })
      const key = await keyFor()
      try {
        return await engine.sendRawTransaction(tx.sign(key).serialize())
      } finally {
        if (zero) key.fill(0)
      }
    }
    return req.nonce === undefined ? nonceLock.run(lower(from), work) : work()
  }
  /** geth's SignTransaction preconditions (eth_ and personal_ alike). */
  const checkSignArgs = (req: CallRequestValue): void => {
    if (req.gas === undefined) throw new EngineError('gas not specified')
    if (req.gasPrice === undefined && (req.maxFeePerGas === undefined || req.maxPriorityFeePerGas === undefined)) {
      throw new EngineError('missing gasPrice or maxFeePerGas/maxPriorityFeePerGas')
    }
    if (req.nonce === undefined) throw new EngineError('nonce not specified')
  }
  const signTx = async (req: CallRequestValue, key: () => Uint8Array | Promise<Uint8Array>, zero: boolean): Promise<Json> => {
    const tx = await buildTx(engine, { ...req, from: req.from ?? ZERO_ADDRESS })
    checkTxFee(tx, feeCap)
    const k = await key()
    try {
      const signed = tx.sign(k)
      return { raw: hex(signed.serialize()), tx: signedTxJSON(signed) }
    } finally {
      if (zero) k.fill(0)
    }
  }
  return { accounts, send, checkSignArgs, signTx }
}

/** The `personal_` namespace (coreth service `internal-personal`). */
export function personalMethods(ctx: Pick<RpcContext, 'engine' | 'config' | 'accounts'>): MethodTable {
  const { accounts, send, checkSignArgs, signTx } = signer(ctx)
  return inService('internal-personal', {
    /** Handler for `personal_listAccounts`. */
    personal_listAccounts: method(z.tuple([]), () => accounts.list()),
    /** Handler for `personal_newAccount`: a new key file; the checksummed address. */
    personal_newAccount: method(z.tuple([GoString]), async ([password]) => toChecksumAddress(await accounts.create(password))),
    /** Handler for `personal_importRawKey`: hex private key (with or without 0x). */
    personal_importRawKey: method(z.tuple([GoString, GoString]), async ([hexKey, password]) => {
      const body = hexKey.replace(/^0x/i, '')
      const bad = body.match(/[^0-9a-fA-F]/)
      if (bad !== null) throw new AccountError(`invalid hex character ${JSON.stringify(bad[0])} in private key`)
      if (body.length % 2 !== 0) throw new AccountError('invalid hex data for private key')
      const key = Buffer.from(body, 'hex')
      try {
        return await accounts.importKey(key, password)
      } finally {
        key.fill(0)
      }
    }),
    /** Handler for `personal_unlockAccount`: duration in seconds, default 300, 0 = until locked. */
    personal_unlockAccount: method(z.tuple([Address, GoString, GoUint64Number.optional()]), async ([address, password, duration]) => {
      const seconds = duration ?? 300n
      if (seconds > AccountManager.MAX_UNLOCK_SECONDS) throw new AccountError('unlock duration too large')
      await accounts.unlock(address, password, seconds)
      return true
    }),
    /** Handler for `personal_lockAccount`. */
    personal_lockAccount: method(z.tuple([Address]), ([address]) => {
      accounts.lock(address)
      return true
    }),
    /** Handler for `personal_sendTransaction`: signs with the key `password` decrypts, submits. */
    personal_sendTransaction: method(z.tuple([CallRequest, GoString]), async ([req, password]) => {
      const from = req.from ?? ZERO_ADDRESS
      await accounts.find(from)
      return send(req, () => accounts.decrypt(from, password), true)
    }),
    /** Handler for `personal_signTransaction`: {raw, tx}, not submitted. */
    personal_signTransaction: method(z.tuple([CallRequest, GoString]), async ([req, password]) => {
      if (req.from === undefined) throw new EngineError('sender not specified')
      checkSignArgs(req)
      const from = req.from
      await accounts.find(from)
      return signTx(req, () => accounts.decrypt(from, password), true)
    }),
    /** Handler for `personal_sign`: EIP-191 personal message signature, V 27/28. */
    personal_sign: method(z.tuple([Data, Address, GoString]), async ([data, address, password]) => {
      await accounts.find(address)
      const key = await accounts.decrypt(address, password)
      try {
        return signText(key, data)
      } finally {
        key.fill(0)
      }
    }),
    /** Handler for `personal_ecRecover`: the signer of an eth_sign / personal_sign signature. */
    personal_ecRecover: method(z.tuple([Data, Data]), ([data, sig]) => {
      if (sig.length !== 65) throw new EngineError('signature must be 65 bytes long')
      if (sig[64] !== 27 && sig[64] !== 28) throw new EngineError('invalid Ethereum signature (V is not 27 or 28)')
      try {
        return recoverAddress(hashMessage(data), hex(sig)).toLowerCase()
      } catch {
        throw new EngineError('recovery failed')
      }
    }),
  })
}

/**
 * The account methods of `eth_`. eth_accounts is always served: with `internal-account` it lists
 * the keystore, without it `[]` (coreth answers -32601 then; eth_accounts is in this node's
 * required set). eth_sign, eth_signTransaction and eth_sendTransaction need `internal-transaction`
 * (their coreth service) and `internal-account`.
 */
export function accountMethods(ctx: Pick<RpcContext, 'engine' | 'config' | 'accounts'>): MethodTable {
  const { accounts, send, checkSignArgs, signTx } = signer(ctx)
  const listed = resolveEthApis(ctx.config.chain['eth-apis']).has('internal-account')
  return inService(['internal-transaction', 'internal-account'], {
    /** Handler for `eth_accounts`: the keystore's accounts when internal-account is on. */
    eth_accounts: inServiceOne('always', method(z.tuple([]), async () => (listed ? accounts.list() : []))),
    /** Handler for `eth_sign`: EIP-191 signature by an unlocked account. */
    eth_sign: method(z.tuple([Address, Data]), async ([address, data]) => {
      await accounts.find(address)
      return signText(accounts.unlockedKey(address), data)
    }),
    /** Handler for `eth_signTransaction`: {raw, tx} signed by an unlocked account, not submitted. */
    eth_signTransaction: method(z.tuple([CallRequest]), async ([req]) => {
      checkSignArgs(req)
      const from = req.from ?? ZERO_ADDRESS
      return signTx(req, async () => {
        await accounts.find(from)
        return accounts.unlockedKey(from)
      }, false)
    }),
    /** Handler for `eth_sendTransaction`: filled (geth's defaults), signed by an unlocked account, submitted. */
    eth_sendTransaction: method(z.tuple([CallRequest]), async ([req]) => {
      const from = req.from ?? ZERO_ADDRESS
      await accounts.find(from)
      return send(req, () => accounts.unlockedKey(from), false)
    }),
  })
}
