import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { AddrLocker } from '../engine/accounts/accountSigner.js'
import type { Engine } from '../engine/engine.js'
import { fillTransaction } from '../engine/accounts/fillTransaction.js'
import { placeholderSignature } from '../engine/exec/impersonatedTx.js'
import { sealTx } from '../engine/chain/txMemo.js'
import { admitTransaction } from '../engine/pool/txValidation.js'
import type { CallRequest } from '../engine/base/types.js'
import type { DevControls } from './devControls.js'

const ZERO_ADDRESS = new Uint8Array(20)

/**
 * Impersonated senders (anvil_impersonateAccount, anvil_autoImpersonateAccount): eth_sendTransaction
 * from one of them is filled as usual and mined with that sender, with no real signature
 * (anvil: crates/anvil/src/eth/api.rs send_transaction). The set is in-memory: a reset empties it;
 * a revert leaves it as it is, as anvil's and hardhat's snapshots do not hold it.
 */
export class Impersonation {
  private readonly accounts = new Set<string>()
  private auto = false
  private readonly nonceLock = new AddrLocker()

  constructor(
    private readonly engine: Engine,
    controls: DevControls,
  ) {
    controls.addPart('impersonation', {
      save: () => null,
      restore: (saved) => {
        if (saved !== undefined) return
        this.accounts.clear()
        this.auto = false
      },
    })
  }

  /** anvil_impersonateAccount. */
  impersonate(address: Uint8Array): void {
    this.accounts.add(key(address))
  }

  /** anvil_stopImpersonatingAccount: whether it was impersonated (hardhat's answer). */
  stop(address: Uint8Array): boolean {
    return this.accounts.delete(key(address))
  }

  /** anvil_autoImpersonateAccount: every sender impersonated while on. */
  setAuto(on: boolean): void {
    this.auto = on
  }

  /** Whether eth_sendTransaction from `from` (unset: the zero address, as geth fills it) goes through send(). */
  covers(from: Uint8Array | undefined): boolean {
    return this.auto || this.accounts.has(key(from ?? ZERO_ADDRESS))
  }

  /**
   * eth_sendTransaction from an impersonated sender: filled as for a signer (geth's defaults), given a
   * placeholder signature, sealed with its sender and admitted without recovery. Sends whose nonce the
   * node picks run one at a time per sender, as a signer's do.
   */
  send(req: CallRequest): Promise<string> {
    const from = req.from ?? ZERO_ADDRESS
    const sender = new Address(from)
    const work = async (): Promise<string> => {
      const tx = placeholderSigned(await fillTransaction(this.engine, { ...req, from }), from)
      return this.engine.submit((rules, arrival) =>
        admitTransaction(tx, rules, arrival, () => {
          sealTx(tx, sender)
          return sender
        }),
      )
    }
    return req.nonce === undefined ? this.nonceLock.run(key(from), work) : work()
  }
}

/** The filled transaction with the placeholder signature (y-parity 0; a legacy one's v per EIP-155), unfrozen for sealTx. */
function placeholderSigned(filled: TypedTransaction, from: Uint8Array): TypedTransaction {
  const v = filled.type === 0 ? 35n + 2n * filled.common.chainId() : 0n
  return createTx({ ...filled.toJSON(), type: filled.type, v, ...placeholderSignature(from) } as never, { common: filled.common, freeze: false })
}

function key(address: Uint8Array): string {
  return Buffer.from(address).toString('hex')
}
