import { Account, KECCAK256_NULL, KECCAK256_RLP, bytesToUnprefixedHex } from '@ethereumjs/util'

/** An account as the journal holds it: immutable (a write puts a new one), its code hash also in hex. */
export interface Acc {
  readonly nonce: bigint
  readonly balance: bigint
  readonly storageRoot: Uint8Array
  readonly codeHash: Uint8Array
  readonly codeHex: string
}

export const EMPTY_CODE_HEX = bytesToUnprefixedHex(KECCAK256_NULL)
export const EMPTY_ROOT_HEX = bytesToUnprefixedHex(KECCAK256_RLP)

/** ethereumjs's `new Account()`: what a missing account reads as once written. */
export const NEW_ACC: Acc = { nonce: 0n, balance: 0n, storageRoot: KECCAK256_RLP, codeHash: KECCAK256_NULL, codeHex: EMPTY_CODE_HEX }

export function accFrom(a: Account): Acc {
  return { nonce: a.nonce, balance: a.balance, storageRoot: a.storageRoot, codeHash: a.codeHash, codeHex: bytesToUnprefixedHex(a.codeHash) }
}

export function toAccount(a: Acc): Account {
  return new Account(a.nonce, a.balance, a.storageRoot, a.codeHash)
}

/** EIP-161 emptiness, as Account.isEmpty. */
export function isEmptyAcc(a: Acc | undefined): boolean {
  return a === undefined || (a.nonce === 0n && a.balance === 0n && a.codeHex === EMPTY_CODE_HEX)
}

export function withBalance(a: Acc, balance: bigint): Acc {
  return { ...a, balance }
}

export function withNonce(a: Acc, nonce: bigint): Acc {
  return { ...a, nonce }
}
