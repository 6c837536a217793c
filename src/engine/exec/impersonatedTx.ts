import type { TypedTransaction } from '@ethereumjs/tx'
import { type Account, Account as AccountClass, type Address, KECCAK256_NULL, bytesToBigInt, equalsBytes } from '@ethereumjs/util'
import { type RunTxOpts, type RunTxResult, type VM, runTx } from '@ethereumjs/vm'
import { chargedGas, creditsBaseFee, minChargeDivisor } from '../../evm/evmRules.js'
import { feeCaps } from '../chain/feeCaps.js'

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
export async function runBlockTx(vm: VM, opts: RunTxOpts & { tx: TypedTransaction }): Promise<RunTxResult> {
  const result = await (isImpersonatedTx(opts.tx) ? runTxFromContract(vm, opts, opts.tx.getSenderAddress()) : runTx(vm, opts))
  return creditBaseFee(vm, opts.block, await chargeMinimum(vm, opts.block, opts.tx, result))
}

/**
 * Helicon's minimum charge on ethereumjs's run (evmRules.chargedGas): runTx refunded the sender the
 * gas under ceil(limit / λ) and credited its tip to nobody; both are taken back here, before
 * creditBaseFee credits the base fee of the whole charged gas.
 */
export async function chargeMinimum(vm: VM, block: RunTxOpts['block'], tx: TypedTransaction, result: RunTxResult): Promise<RunTxResult> {
  const charged = chargedGas(result.totalGasSpent, tx.gasLimit, minChargeDivisor(vm.common))
  const extra = charged - result.totalGasSpent
  if (extra === 0n || block === undefined) return result
  const baseFee = block.header.baseFeePerGas ?? 0n
  const { feeCap, tipCap } = feeCaps(tx)
  const price = feeCap < baseFee + tipCap ? feeCap : baseFee + tipCap
  const sm = vm.stateManager as unknown as AccountReader & { putAccount(address: Address, account: Account): Promise<void> }
  const sender = (await sm.getAccount(tx.getSenderAddress())) ?? new AccountClass()
  sender.balance -= extra * price
  await sm.putAccount(tx.getSenderAddress(), sender)
  const tip = (price - baseFee) * extra
  if (tip > 0n) {
    const coinbase = (await sm.getAccount(block.header.coinbase)) ?? new AccountClass()
    coinbase.balance += tip
    await sm.putAccount(block.header.coinbase, coinbase)
  }
  result.totalGasSpent = charged
  result.amountSpent += extra * price
  result.minerValue += tip
  return result
}

/**
 * coreth credits the coinbase (the blackhole) with the whole fee, base fee and tip (graft/coreth
 * core/state_transition.go: gasUsed × the effective gas price; libevm's ShouldCreditBaseFeeToCoinbase);
 * runTx credits the tip only, as geth does: the base fee's part is added here, and to minerValue.
 */
export async function creditBaseFee(vm: VM, block: RunTxOpts['block'], result: RunTxResult): Promise<RunTxResult> {
  const baseFee = block?.header.baseFeePerGas ?? 0n
  const fee = result.totalGasSpent * baseFee
  if (fee === 0n || block === undefined || !creditsBaseFee(vm.common)) return result
  const coinbase = block.header.coinbase
  const sm = vm.stateManager as unknown as AccountReader & { putAccount(address: Address, account: Account): Promise<void> }
  const account = (await sm.getAccount(coinbase)) ?? new AccountClass()
  account.balance += fee
  await sm.putAccount(coinbase, account)
  result.minerValue += fee
  return result
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
