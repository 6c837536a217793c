import { toChecksumAddress } from '@ethereumjs/util'
import { z } from 'zod'
import { AccountError } from '../engine/accounts/accountError.js'
import { AccountManager } from '../engine/accounts/accounts.js'
import { AccountSigner, ecRecover, type KeySource } from '../engine/accounts/accountSigner.js'
import { EngineError } from '../engine/base/errors.js'
import { resolveEthApis } from '../ethApiNames.js'
import { Address, CallRequest, Data, GoString, GoUint64Number } from '../rpc/schemas.js'
import { signTxResult } from '../rpc/signTxResult.js'
import { type MethodTable, type RpcContext, inService, inServiceOne, method } from '../rpc/types.js'

/*
 * personal_ (geth/coreth internal/ethapi PersonalAccountAPI, service `internal-personal`) and
 * the account methods of eth_: eth_accounts (EthereumAccountAPI, `internal-account`) and
 * eth_sign, eth_signTransaction, eth_sendTransaction (coreth's TransactionAPI, which this node
 * also gates behind `internal-account`: docs/SECURITY.md E9). Wording follows geth. coreth has no
 * eth_signTypedData_v4 (geth never served it from internal/ethapi), so neither does this node.
 * Params of these methods hold passwords and keys: the dispatcher logs only method, id and ms.
 * The signing itself is src/engine/accounts/accountSigner.ts.
 */

const ZERO_ADDRESS = new Uint8Array(20)

type SignerContext = Pick<RpcContext, 'engine' | 'config' | 'accounts'>

const accountSigner = (ctx: SignerContext): AccountSigner => new AccountSigner(ctx.engine, ctx.accounts, ctx.config.chain['rpc-tx-fee-cap'])

/** The key `password` decrypts, wiped after use (personal_). */
const decrypted = (accounts: AccountManager, address: Uint8Array, password: string): KeySource => ({ key: () => accounts.decrypt(address, password), wipe: true })
/** An unlocked account's key (eth_), kept. */
const unlocked = (accounts: AccountManager, address: Uint8Array): KeySource => ({ key: () => accounts.unlockedKey(address), wipe: false })

/** The `personal_` namespace (coreth service `internal-personal`). */
export function personalMethods(ctx: SignerContext): MethodTable {
  const { accounts } = ctx
  const signer = accountSigner(ctx)
  return inService('internal-personal', {
    /** Handler for `personal_listAccounts`. */
    personal_listAccounts: method(z.tuple([]), () => accounts.list()),
    /** Handler for `personal_newAccount`: a new key file; the checksummed address. */
    personal_newAccount: method(z.tuple([GoString]), async ([password]) => toChecksumAddress(await accounts.create(password))),
    /** Handler for `personal_importRawKey`: hex private key (with or without 0x). */
    personal_importRawKey: method(z.tuple([GoString, GoString]), ([hexKey, password]) => signer.importRawKey(hexKey, password)),
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
      return signer.sendTransaction(req, decrypted(accounts, from, password))
    }),
    /** Handler for `personal_signTransaction`: {raw, tx}, not submitted. */
    personal_signTransaction: method(z.tuple([CallRequest, GoString]), async ([req, password]) => {
      if (req.from === undefined) throw new EngineError('sender not specified')
      signer.checkSignArgs(req)
      await accounts.find(req.from)
      return signTxResult(await signer.signTransaction(req, decrypted(accounts, req.from, password)))
    }),
    /** Handler for `personal_sign`: EIP-191 personal message signature, V 27/28. */
    personal_sign: method(z.tuple([Data, Address, GoString]), async ([data, address, password]) => {
      await accounts.find(address)
      return signer.signText(data, decrypted(accounts, address, password))
    }),
    /** Handler for `personal_ecRecover`: the signer of an eth_sign / personal_sign signature. */
    personal_ecRecover: method(z.tuple([Data, Data]), ([data, sig]) => ecRecover(data, sig)),
  })
}

/**
 * The account methods of `eth_`. eth_accounts is always served: with `internal-account` it lists
 * the keystore, without it `[]` (coreth answers -32601 then; eth_accounts is in this node's
 * required set). eth_sign, eth_signTransaction and eth_sendTransaction need `internal-transaction`
 * (their coreth service) and `internal-account`.
 */
export function accountMethods(ctx: SignerContext): MethodTable {
  const { accounts } = ctx
  const signer = accountSigner(ctx)
  const listed = resolveEthApis(ctx.config.chain['eth-apis']).has('internal-account')
  return inService(['internal-transaction', 'internal-account'], {
    /** Handler for `eth_accounts`: the keystore's accounts when internal-account is on. */
    eth_accounts: inServiceOne(
      'always',
      method(z.tuple([]), async () => (listed ? accounts.list() : [])),
    ),
    /** Handler for `eth_sign`: EIP-191 signature by an unlocked account. */
    eth_sign: method(z.tuple([Address, Data]), async ([address, data]) => {
      await accounts.find(address)
      return signer.signText(data, unlocked(accounts, address))
    }),
    /** Handler for `eth_signTransaction`: {raw, tx} signed by an unlocked account, not submitted. */
    eth_signTransaction: method(z.tuple([CallRequest]), async ([req]) => {
      signer.checkSignArgs(req)
      const from = req.from ?? ZERO_ADDRESS
      const key: KeySource = {
        key: async () => {
          await accounts.find(from)
          return accounts.unlockedKey(from)
        },
        wipe: false,
      }
      return signTxResult(await signer.signTransaction(req, key))
    }),
    /** Handler for `eth_sendTransaction`: filled (geth's defaults), signed by an unlocked account, submitted. */
    eth_sendTransaction: method(z.tuple([CallRequest]), async ([req]) => {
      const from = req.from ?? ZERO_ADDRESS
      await accounts.find(from)
      return signer.sendTransaction(req, unlocked(accounts, from))
    }),
  })
}
