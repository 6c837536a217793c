/**
 * A small table of well-known 4-byte selectors and event topics (ERC-20, ERC-721, WETH, subnet-evm's
 * stateful precompiles) and a decoder of their static arguments, so a transaction's input and its logs
 * read as calls and events.
 */

export type AbiType = 'address' | 'uint256' | 'bool' | 'bytes32'

export interface KnownSignature {
  readonly name: string
  readonly inputs: readonly AbiType[]
}

/** Function selectors: the first 4 bytes of keccak256 of the signature. */
export const FUNCTIONS: Readonly<Record<string, KnownSignature>> = {
  '0xa9059cbb': { name: 'transfer', inputs: ['address', 'uint256'] },
  '0x095ea7b3': { name: 'approve', inputs: ['address', 'uint256'] },
  '0x23b872dd': { name: 'transferFrom', inputs: ['address', 'address', 'uint256'] },
  '0x70a08231': { name: 'balanceOf', inputs: ['address'] },
  '0xdd62ed3e': { name: 'allowance', inputs: ['address', 'address'] },
  '0x18160ddd': { name: 'totalSupply', inputs: [] },
  '0x40c10f19': { name: 'mint', inputs: ['address', 'uint256'] },
  '0x42966c68': { name: 'burn', inputs: ['uint256'] },
  '0x79cc6790': { name: 'burnFrom', inputs: ['address', 'uint256'] },
  '0xd0e30db0': { name: 'deposit', inputs: [] },
  '0x2e1a7d4d': { name: 'withdraw', inputs: ['uint256'] },
  '0x42842e0e': { name: 'safeTransferFrom', inputs: ['address', 'address', 'uint256'] },
  '0xa22cb465': { name: 'setApprovalForAll', inputs: ['address', 'bool'] },
  '0x6352211e': { name: 'ownerOf', inputs: ['uint256'] },
  '0x8da5cb5b': { name: 'owner', inputs: [] },
  '0xf2fde38b': { name: 'transferOwnership', inputs: ['address'] },
  // subnet-evm's stateful precompiles (docs/L1.md): every allow list, the native minter, the fee and reward managers.
  '0xeb54dae1': { name: 'readAllowList', inputs: ['address'] },
  '0x704b6c02': { name: 'setAdmin', inputs: ['address'] },
  '0x0aaf7043': { name: 'setEnabled', inputs: ['address'] },
  '0xd0ebdbe7': { name: 'setManager', inputs: ['address'] },
  '0x8c6bfb3b': { name: 'setNone', inputs: ['address'] },
  '0x4f5aaaba': { name: 'mintNativeCoin', inputs: ['address', 'uint256'] },
  '0x8f10b586': { name: 'setFeeConfig', inputs: ['uint256', 'uint256', 'uint256', 'uint256', 'uint256', 'uint256', 'uint256', 'uint256'] },
  '0x9e05549a': { name: 'getFeeConfigLastChangedAt', inputs: [] },
  '0x5e00e679': { name: 'setRewardAddress', inputs: ['address'] },
  '0x0329099f': { name: 'allowFeeRecipients', inputs: [] },
  '0xbc178628': { name: 'disableRewards', inputs: [] },
  '0xe915608b': { name: 'currentRewardAddress', inputs: [] },
  '0xf6542b2e': { name: 'areFeeRecipientsAllowed', inputs: [] },
}

/** Event topics: keccak256 of the signature. */
export const EVENTS: Readonly<Record<string, KnownSignature & { readonly indexed: number }>> = {
  '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef': { name: 'Transfer', inputs: ['address', 'address', 'uint256'], indexed: 2 },
  '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925': { name: 'Approval', inputs: ['address', 'address', 'uint256'], indexed: 2 },
  '0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c': { name: 'Deposit', inputs: ['address', 'uint256'], indexed: 1 },
  '0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65': { name: 'Withdrawal', inputs: ['address', 'uint256'], indexed: 1 },
  '0xcdb7ea01f00a414d78757bdb0f6391664ba3fedf987eed280927c1e7d695be3e': { name: 'RoleSet', inputs: ['uint256', 'address', 'address', 'uint256'], indexed: 3 },
  '0x400cd392f3d56fd10bb1dbd5839fdda8298208ddaa97b368faa053e1850930ee': { name: 'NativeCoinMinted', inputs: ['address', 'address', 'uint256'], indexed: 2 },
  '0xc2a9e07cba6f4920acaa5933bd0406949d5dbef7ee698e786ea23e8708f32a6c': { name: 'RewardAddressChanged', inputs: ['address', 'address', 'address'], indexed: 3 },
  '0xabb1949bd129fef9b84601a48aee89d600d90074ca10216a02ce43996be55991': { name: 'FeeRecipientsAllowed', inputs: ['address'], indexed: 1 },
  '0xeb121f0335efe8f4b8ebef7793c18c171834696989656a8c345acc558359fabf': { name: 'RewardsDisabled', inputs: ['address'], indexed: 1 },
}

/** The key (selector or topic) of the entry of `table` named `name`. */
function keyOf(table: Readonly<Record<string, { readonly name: string }>>, name: string): string {
  const found = Object.entries(table).find(([, entry]) => entry.name === name)
  if (found === undefined) throw new Error(`${name} is not in the table`)
  return found[0]
}

/** The selector of a function of the table by its name. */
export const selectorOf = (name: string): string => keyOf(FUNCTIONS, name)
/** The topic of an event of the table by its name. */
export const topicOf = (name: string): string => keyOf(EVENTS, name)

/** Solidity's revert payloads: Error(string) and Panic(uint256). */
export const ERROR_SELECTOR = '0x08c379a0'
export const PANIC_SELECTOR = '0x4e487b71'

/** Solidity's panic codes (docs.soliditylang.org, "Panic via assert and Error via require"). */
const PANIC_CODES: Readonly<Record<number, string>> = {
  0x00: 'generic compiler panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division or modulo by zero',
  0x21: 'invalid enum value',
  0x22: 'bad storage byte array encoding',
  0x31: 'pop() on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'out of memory',
  0x51: 'call to a zero-initialized function',
}

function word(hex: string, i: number): string | undefined {
  const w = hex.slice(i * 64, i * 64 + 64)
  return w.length === 64 ? w : undefined
}

/** One 32-byte word as `type` shows it. */
export function decodeWord(type: AbiType, w: string): string {
  if (type === 'address') return '0x' + w.slice(24)
  if (type === 'bool') return BigInt('0x' + w) === 0n ? 'false' : 'true'
  if (type === 'uint256') return BigInt('0x' + w).toString()
  return '0x' + w
}

/** A call's input as `name(arg, …)` with its arguments, when the selector is known and the data fits. */
export function decodeCall(input: string): { name: string; args: { type: AbiType; value: string }[] } | undefined {
  const sig = FUNCTIONS[input.slice(0, 10).toLowerCase()]
  if (sig === undefined) return undefined
  const body = input.slice(10)
  const args: { type: AbiType; value: string }[] = []
  for (let i = 0; i < sig.inputs.length; i++) {
    const w = word(body, i)
    if (w === undefined) return undefined
    args.push({ type: sig.inputs[i]!, value: decodeWord(sig.inputs[i]!, w) })
  }
  return { name: sig.name, args }
}

/** A log as `Name(arg, …)` when its first topic is a known event. */
export function decodeLog(topics: readonly string[], data: string): { name: string; args: { type: AbiType; value: string }[] } | undefined {
  const sig = EVENTS[(topics[0] ?? '').toLowerCase()]
  if (sig === undefined || topics.length !== sig.indexed + 1) return undefined
  const body = data.startsWith('0x') ? data.slice(2) : data
  const args: { type: AbiType; value: string }[] = []
  for (let i = 0; i < sig.inputs.length; i++) {
    const w = i < sig.indexed ? topics[i + 1]!.slice(2) : word(body, i - sig.indexed)
    if (w === undefined || w.length !== 64) return undefined
    args.push({ type: sig.inputs[i]!, value: decodeWord(sig.inputs[i]!, w) })
  }
  return { name: sig.name, args }
}

/** The reason in revert data: Error(string)'s text, Panic(uint256)'s meaning, else undefined. */
export function decodeRevert(data: string | undefined): string | undefined {
  if (data === undefined || !data.startsWith('0x') || data.length < 10) return undefined
  const sel = data.slice(0, 10).toLowerCase()
  const body = data.slice(10)
  if (sel === PANIC_SELECTOR) {
    const w = word(body, 0)
    if (w === undefined) return undefined
    const code = Number(BigInt('0x' + w))
    return `panic 0x${code.toString(16).padStart(2, '0')}: ${PANIC_CODES[code] ?? 'unknown panic code'}`
  }
  if (sel !== ERROR_SELECTOR) return undefined
  const off = word(body, 0)
  if (off === undefined) return undefined
  const at = Number(BigInt('0x' + off)) / 32
  const len = word(body, at)
  if (len === undefined) return undefined
  const n = Number(BigInt('0x' + len))
  const hex = body.slice((at + 1) * 64, (at + 1) * 64 + n * 2)
  if (hex.length !== n * 2) return undefined
  const bytes = new Uint8Array(n)
  for (let i = 0; i < n; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return new TextDecoder().decode(bytes)
}
