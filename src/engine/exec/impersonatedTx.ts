import type { TypedTransaction } from '@ethereumjs/tx'
import { type Account, type Address, KECCAK256_NULL, bytesToBigInt, equalsBytes } from '@ethereumjs/util'
import { type RunTxOpts, type RunTxResult, type VM, runTx } from '@ethereumjs/vm'

const R_BASE = 1n << 160n

/**
 * The signature no key made that an impersonated sender's transaction carries (src/dev/impersonation.ts):
 * r = 2^160 + the sender (never zero, and different per sender, so two senders' otherwise equal
 * transactions differ in hash: anvil hashes the sender in for the same reason), s = 1.
 */
export function placeholderSignature(sender: Uint8Array): { r: bigint; s: bigint } {
  return { r: R_BASE + bytesToBigInt(sender), s: 1n }
}

/** Whether `tx` carries the placeholder signature (a real one with s = 1 does not occur). */
export function isImpersonatedTx(tx: TypedTransaction): boolean {
  return tx.s === 1n && tx.r !== undefined && tx.r >> 160n === 1n
}

type AccountReader = { getAccount(address: Address): Promise<Account | undefined> }

/**
 * runTx for a block's transaction. An impersonated sender may have code (a contract impersonated
 * in a test), which EIP-3607 refuses as a sender; anvil turns the check off (disable_eip3607), and
 * so does this for impersonated transactions only (runTxFromContract).
 */
export function runBlockTx(vm: VM, opts: RunTxOpts & { tx: TypedTransaction }): Promise<RunTxResult> {
  return isImpersonatedTx(opts.tx) ? runTxFromContract(vm, opts, opts.tx.getSenderAddress()) : runTx(vm, opts)
}

/**
 * runTx without EIP-3607's refusal of a sender with code (geth's calls skip it too: SkipAccountChecks).
 * runTx's first read of the sender's account is that check, which sees no code; every later read
 * (the account written back, calls into the sender itself) sees the code as it is.
 */
export function runTxFromContract(vm: VM, opts: RunTxOpts, sender: Address): Promise<RunTxResult> {
  const sm = vm.stateManager as unknown as AccountReader
  const read = sm.getAccount
  const own = Object.hasOwn(sm, 'getAccount')
  const restore = () => {
    if (own) sm.getAccount = read
    else delete (sm as Partial<AccountReader>).getAccount
  }
  sm.getAccount = async (address: Address) => {
    const account = await read.call(sm, address)
    if (!address.equals(sender)) return account
    restore()
    if (account !== undefined && !equalsBytes(account.codeHash, KECCAK256_NULL)) hideCodeOnce(account)
    return account
  }
  return runTx(vm, opts).finally(restore)
}

/** The account's code hash reads as none once (the EIP-3607 check), then as it is. */
function hideCodeOnce(account: Account): void {
  Object.defineProperty(account, 'codeHash', {
    configurable: true,
    get() {
      delete (account as { codeHash?: unknown }).codeHash
      return KECCAK256_NULL
    },
    set(value: Uint8Array) {
      delete (account as { codeHash?: unknown }).codeHash
      account.codeHash = value
    },
  })
}
