import { type Account, Address, KECCAK256_NULL, KECCAK256_RLP, bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util'
import type { EvmFault, EvmLog, EvmResult, EvmState, EvmStateChanges } from './types.js'

/**
 * The pre-state both results started from, for the keys they disagree on: an account written on one
 * side only may have been written with the value it already had (ethereumjs writes the caller and
 * `to` of every call, and SSTORE writes even an unchanged value), which is no difference.
 */
export interface PriorState {
  /** `address`: lower-case hex without 0x; undefined when absent. */
  account(address: string): Account | undefined
  /** `slot`: hex of the 32-byte key without 0x; the value without leading zeros (empty = zero). */
  slot(address: string, slot: string): Uint8Array
}

/** No account, every slot zero: what a comparison without a pre-state assumes. */
const NOTHING: PriorState = { account: () => undefined, slot: () => EMPTY }
const EMPTY = new Uint8Array(0)
/** Most of a long byte string a line shows. */
const SHOWN_BYTES = 96

/**
 * Every difference between two results of the same message on the same pre-state, one line each and
 * naming the field; empty when they are equal. State changes are compared by effect (what the state
 * holds afterwards), given `prior` for the keys one side wrote and the other did not (readPrior
 * gives it); an empty account counts as absent, since EIP-161 deletes a touched one at the
 * transaction's end. An account's storageRoot is not compared: a writer recomputes it from `storage`.
 */
export function compareResults(ours: EvmResult, theirs: EvmResult, prior: PriorState = NOTHING): string[] {
  const out: string[] = []
  if (errorKind(ours.error) !== errorKind(theirs.error)) out.push(`error: ours ${ours.error ?? 'none'}, theirs ${theirs.error ?? 'none'}`)
  else if (ours.fault !== undefined && theirs.fault !== undefined && faultFacts(ours.error, ours.fault) !== faultFacts(theirs.error, theirs.fault)) {
    out.push(`fault: ours ${faultFacts(ours.error, ours.fault)}, theirs ${faultFacts(theirs.error, theirs.fault)}`)
  }
  if (!equalsBytes(ours.returnData, theirs.returnData)) out.push(`returnData: ours ${hex(ours.returnData)}, theirs ${hex(theirs.returnData)}`)
  if (ours.executionGasUsed !== theirs.executionGasUsed) out.push(`executionGasUsed: ours ${ours.executionGasUsed}, theirs ${theirs.executionGasUsed}`)
  if (ours.gasRefund !== theirs.gasRefund) out.push(`gasRefund: ours ${ours.gasRefund}, theirs ${theirs.gasRefund}`)
  if (!sameOptionalBytes(ours.createdAddress, theirs.createdAddress)) out.push(`createdAddress: ours ${optionalHex(ours.createdAddress)}, theirs ${optionalHex(theirs.createdAddress)}`)
  compareLogs(ours.logs, theirs.logs, out)
  compareChanges(ours.changes, theirs.changes, prior, out)
  compareAccessed(ours.accessed, theirs.accessed, out)
  return out
}

/**
 * The pre-state of the keys the two results' changes disagree on, read from `state` (the state both
 * ran on); nothing is read when they agree, so an equal pair costs no read.
 */
export async function readPrior(state: EvmState, ours: EvmResult, theirs: EvmResult): Promise<PriorState> {
  const { accounts, slots } = disputed(ours.changes, theirs.changes)
  if (accounts.size === 0 && slots.length === 0) return NOTHING
  const accountsRead = new Map<string, Account | undefined>()
  const slotsRead = new Map<string, Uint8Array>()
  for (const address of accounts) accountsRead.set(address, await state.getAccount(addressOf(address)))
  for (const [address, slot] of slots) slotsRead.set(address + slot, await state.getStorage(addressOf(address), hexToBytes(`0x${slot}`)))
  return { account: (address) => accountsRead.get(address), slot: (address, slot) => slotsRead.get(address + slot) ?? EMPTY }
}

/** The accounts and slots whose written values are not the same on both sides (a cheap pass over the maps). */
function disputed(a: EvmStateChanges, b: EvmStateChanges): { accounts: Set<string>; slots: [string, string][] } {
  const accounts = new Set<string>()
  for (const [address, account] of a.accounts) if (!b.accounts.has(address) || !sameAccount(account, b.accounts.get(address)!)) accounts.add(address)
  for (const address of b.accounts.keys()) if (!a.accounts.has(address)) accounts.add(address)
  // A storage wipe on one side only matters when the account had storage before: its storageRoot says.
  for (const address of a.cleared) if (!b.cleared.has(address)) accounts.add(address)
  for (const address of b.cleared) if (!a.cleared.has(address)) accounts.add(address)
  const slots: [string, string][] = []
  for (const [address, map] of a.storage) {
    const other = b.storage.get(address)
    for (const [slot, value] of map) {
      const theirs = other?.get(slot)
      if (theirs === undefined || !sameValue(value, theirs)) slots.push([address, slot])
    }
  }
  for (const [address, map] of b.storage) {
    const other = a.storage.get(address)
    for (const slot of map.keys()) if (other?.get(slot) === undefined) slots.push([address, slot])
  }
  return { accounts, slots }
}

function compareChanges(ours: EvmStateChanges, theirs: EvmStateChanges, prior: PriorState, out: string[]): void {
  const { accounts, slots } = disputed(ours, theirs)
  for (const address of accounts) {
    const a = effectiveAccount(ours, address, prior)
    const b = effectiveAccount(theirs, address, prior)
    if (!sameEffect(a, b)) out.push(`account ${address}: ours ${showAccount(a)}, theirs ${showAccount(b)}`)
    const hadStorage = prior.account(address) !== undefined && !equalsBytes(prior.account(address)!.storageRoot, KECCAK256_RLP)
    if (hadStorage && wiped(ours, address) !== wiped(theirs, address)) out.push(`storage of ${address}: ${wiped(ours, address) ? 'ours' : 'theirs'} alone wiped it`)
  }
  for (const [address, slot] of slots) {
    const a = effectiveSlot(ours, address, slot, prior)
    const b = effectiveSlot(theirs, address, slot, prior)
    if (!sameValue(a, b)) out.push(`storage ${address}[${slot}]: ours ${hex(a)}, theirs ${hex(b)}`)
  }
  compareCodes(ours, theirs, out)
}

/**
 * New code must reach the writer: a code hash an account holds in the changes, present in one side's
 * `codes` and not the other's. (Neither having it is no difference: the code was there before.)
 */
function compareCodes(ours: EvmStateChanges, theirs: EvmStateChanges, out: string[]): void {
  const seen = new Set<string>()
  for (const changes of [ours, theirs]) {
    const other = changes === ours ? theirs : ours
    for (const [address, account] of changes.accounts) {
      if (account === null || equalsBytes(account.codeHash, KECCAK256_NULL)) continue
      const hash = bytesToHex(account.codeHash).slice(2)
      if (seen.has(hash)) continue
      seen.add(hash)
      if (changes.codes.has(hash) !== other.codes.has(hash)) out.push(`code ${hash} of ${address}: in ${changes.codes.has(hash) === (changes === ours) ? 'ours' : 'theirs'} only`)
    }
  }
}

function compareLogs(ours: EvmLog[], theirs: EvmLog[], out: string[]): void {
  if (ours.length !== theirs.length) out.push(`logs: ours ${ours.length}, theirs ${theirs.length}`)
  const n = Math.min(ours.length, theirs.length)
  for (let i = 0; i < n; i++) {
    const a = ours[i]!
    const b = theirs[i]!
    if (!equalsBytes(a.address, b.address)) out.push(`logs[${i}].address: ours ${hex(a.address)}, theirs ${hex(b.address)}`)
    if (a.topics.length !== b.topics.length || a.topics.some((t, j) => !equalsBytes(t, b.topics[j]!)))
      out.push(`logs[${i}].topics: ours [${a.topics.map(hex).join(', ')}], theirs [${b.topics.map(hex).join(', ')}]`)
    if (!equalsBytes(a.data, b.data)) out.push(`logs[${i}].data: ours ${hex(a.data)}, theirs ${hex(b.data)}`)
  }
}

function compareAccessed(ours: Map<string, Set<string>>, theirs: Map<string, Set<string>>, out: string[]): void {
  for (const [address, slots] of ours) {
    const other = theirs.get(address)
    if (other === undefined) out.push(`accessed ${address}: ours only`)
    else for (const slot of slots) if (!other.has(slot)) out.push(`accessed ${address}[${slot}]: ours only`)
  }
  for (const [address, slots] of theirs) {
    const other = ours.get(address)
    if (other === undefined) out.push(`accessed ${address}: theirs only`)
    else for (const slot of slots) if (!other.has(slot)) out.push(`accessed ${address}[${slot}]: theirs only`)
  }
}

/** What geth's text for a halt reads of where it happened (engine/exec/gethVmError.ts): the opcode and stack height, or a read past the return data. */
function faultFacts(error: string | undefined, fault: EvmFault): string {
  if (error === 'stack underflow' || error === 'stack overflow' || error === 'invalid opcode') return `opcode 0x${fault.op.toString(16)}, stack ${fault.stackLen}`
  if (error === 'out of gas') return fault.returnDataOutOfBounds ? 'return data out of bounds' : 'out of gas'
  return ''
}

/** An error's kind: ethereumjs names where an invalid JUMP was ('invalid JUMP at <code hash>/<address>:<pc>'). */
function errorKind(error: string | undefined): string | undefined {
  const at = error?.indexOf(' at ') ?? -1
  return at < 0 ? error : error!.slice(0, at)
}

/** The account after the message (undefined = absent or empty). */
function effectiveAccount(changes: EvmStateChanges, address: string, prior: PriorState): Account | undefined {
  const written = changes.accounts.get(address)
  const account = written === undefined ? prior.account(address) : (written ?? undefined)
  return account === undefined || account.isEmpty() ? undefined : account
}

/** Whether the side's changes drop the account's earlier storage (a wipe, or a deletion). */
function wiped(changes: EvmStateChanges, address: string): boolean {
  return changes.cleared.has(address) || changes.accounts.get(address) === null
}

function effectiveSlot(changes: EvmStateChanges, address: string, slot: string, prior: PriorState): Uint8Array {
  const written = changes.storage.get(address)?.get(slot)
  if (written !== undefined) return written
  return wiped(changes, address) ? EMPTY : prior.slot(address, slot)
}

function sameAccount(a: Account | null, b: Account | null): boolean {
  if (a === null || b === null) return a === b
  return sameEffect(a, b) && equalsBytes(a.storageRoot, b.storageRoot)
}

function sameEffect(a: Account | undefined, b: Account | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return a.nonce === b.nonce && a.balance === b.balance && equalsBytes(a.codeHash, b.codeHash)
}

/** Slot values compared as numbers: one side may keep leading zeros. */
function sameValue(a: Uint8Array, b: Uint8Array): boolean {
  let i = 0
  let j = 0
  while (i < a.length && a[i] === 0) i++
  while (j < b.length && b[j] === 0) j++
  if (a.length - i !== b.length - j) return false
  for (; i < a.length; i++, j++) if (a[i] !== b[j]) return false
  return true
}

function sameOptionalBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a === undefined || b === undefined ? a === b : equalsBytes(a, b)
}

function showAccount(a: Account | undefined): string {
  return a === undefined ? 'absent' : `{nonce ${a.nonce}, balance ${a.balance}, codeHash ${bytesToHex(a.codeHash)}}`
}

function hex(bytes: Uint8Array): string {
  if (bytes.length <= SHOWN_BYTES) return bytesToHex(bytes)
  return `${bytesToHex(bytes.subarray(0, SHOWN_BYTES))}…(${bytes.length} bytes)`
}

function optionalHex(bytes: Uint8Array | undefined): string {
  return bytes === undefined ? 'none' : hex(bytes)
}

function addressOf(address: string): Address {
  return new Address(hexToBytes(`0x${address}`))
}
