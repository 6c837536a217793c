/**
 * What the keystore-backed X and P wallets share (avalanchego: vms/avm/service.go, vms/platformvm/service.go):
 * their error, whose message is the wire text with avalanchego's `fmt.Errorf("<context>: %w", err)` chain,
 * address parsing, the output to one address, and the handling of the user's keys.
 */
import { formatLocalAddress, parseServiceAddress } from './address.js'
import { AvalancheError } from './errors.js'
import { zeroKeys, type KeyPair } from './keychain.js'
import type { ChainAliases } from './networks.js'
import { goQuote } from '../util/goQuote.js'
import { unixNow } from '../util/unixNow.js'

/** api.UserPass: the keystore user a wallet call spends for. */
export interface UserArgs {
  username: string
  password: string
}

/** api.JSONSpendHeader: the user, the addresses whose keys may spend (all when empty), where change goes. */
export interface SpendHeader extends UserArgs {
  from: string[]
  changeAddr: string
}

/** A wallet call that avalanchego refuses, with its text. */
export class WalletError extends AvalancheError {
  override name = 'WalletError'
}

const wrap = (context: string, err: unknown): unknown => (err instanceof AvalancheError ? new WalletError(context + err.message) : err)

/**
 * Runs `step` (sync or async); an Avalanche domain failure becomes a WalletError `<context><its message>`.
 * Anything else is a bug and propagates as it is.
 */
export function inContext<T>(context: string, step: () => T): T {
  try {
    const out = step()
    return (
      out instanceof Promise
        ? out.catch((err: unknown) => {
            throw wrap(context, err)
          })
        : out
    ) as T
  } catch (err) {
    throw wrap(context, err)
  }
}

/** maxPageSize / maxUTXOsToFetch: an import spends at most this many atomic UTXOs. */
export const MAX_IMPORT_UTXOS = 1024

/** A secp256k1fx.TransferOutput of `amount` to one address, spendable at once. */
export const payTo = (amount: bigint, to: Uint8Array) => ({ amount, locktime: 0n, threshold: 1, addrs: [to] })

/** Runs `work` with the user's keys, then wipes them. */
export async function withKeys<T>(keys: readonly KeyPair[], work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } finally {
    zeroKeys(keys)
  }
}

/** Addresses and time as a chain's keystore wallet reads them: the chain's own address format, unix seconds. */
export abstract class ChainWallet {
  protected readonly addrs: { networkID: number; chains: ChainAliases }
  protected readonly now: () => bigint

  constructor(
    opts: { networkID: number; chains: ChainAliases; now?: () => bigint },
    protected readonly chainID: Uint8Array,
  ) {
    this.addrs = { networkID: opts.networkID, chains: opts.chains }
    this.now = opts.now ?? unixNow
  }

  /** An address as the chain's service reads it: `<chain>-<bech32>` (this chain's) or a CB58 short ID. */
  protected parseAddr(text: string): Uint8Array {
    return parseServiceAddress(this.addrs, this.chainID, text)
  }

  /** The `from` addresses of api.JSONSpendHeader. */
  protected parseFrom(texts: readonly string[]): Uint8Array[] {
    return texts.map((text) => inContext(`couldn't parse address ${goQuote(text)}: `, () => this.parseAddr(text)))
  }

  protected formatAddr(addr: Uint8Array): string {
    return formatLocalAddress(this.addrs, this.chainID, addr)
  }
}
