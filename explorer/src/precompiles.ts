/**
 * A subnet-evm chain's stateful precompiles (docs/L1.md) as its JSON-RPC tells them: the ones active
 * (eth_getActiveRulesAt), the fee config in effect (eth_feeConfig), the reward manager's address, and
 * for each allow list the accounts that hold a role: those the chain config names (genesis and
 * precompileUpgrades) and those of RoleSet events, each with its role read by readAllowList.
 */
import { num } from './format.js'
import type { EvmApi } from './rpc.js'
import { decodeLog, decodeWord, selectorOf, topicOf } from './selectors.js'

/** A stateful precompile subnet-evm knows: its genesis key, its name here, its address, whether it has an allow list. */
export interface KnownPrecompile {
  readonly key: string
  readonly name: string
  readonly address: string
  readonly allowList: boolean
}

const at = (n: number): string => `0x02${n.toString(16).padStart(38, '0')}`

/** subnet-evm's precompiles by address (precompile/contracts/, precompile/allowlist/). */
export const PRECOMPILES: readonly KnownPrecompile[] = [
  { key: 'contractDeployerAllowListConfig', name: 'Contract deployer allow list', address: at(0), allowList: true },
  { key: 'contractNativeMinterConfig', name: 'Native minter', address: at(1), allowList: true },
  { key: 'txAllowListConfig', name: 'Transaction allow list', address: at(2), allowList: true },
  { key: 'feeManagerConfig', name: 'Fee manager', address: at(3), allowList: true },
  { key: 'rewardManagerConfig', name: 'Reward manager', address: at(4), allowList: true },
  { key: 'warpConfig', name: 'Warp messenger', address: at(5), allowList: false },
]

const byKey = (key: string): KnownPrecompile | undefined => PRECOMPILES.find((p) => p.key === key)
export const WARP_PRECOMPILE = byKey('warpConfig')!.address
const REWARD_MANAGER = byKey('rewardManagerConfig')!.address
/** Where fees go while rewards are disabled (subnet-evm's constants.BlackholeAddr). */
export const BLACKHOLE = '0x0100000000000000000000000000000000000000'

/** The allow lists' roles (precompile/allowlist/role.go). */
const ROLES = ['None', 'Enabled', 'Admin', 'Manager'] as const
export const roleName = (role: bigint): string => ROLES[Number(role)] ?? `role ${role}`
/** The order roles are listed in: admins, managers, then enabled accounts. */
const RANK: Readonly<Record<string, number>> = { Admin: 0, Manager: 1, Enabled: 2 }

/** The config keys that name accounts of an allow list. */
const ROLE_KEYS = ['adminAddresses', 'managerAddresses', 'enabledAddresses'] as const

/**
 * The accounts the chain config (eth_getChainConfig in subnet-evm's form) names in `key`'s configs:
 * the genesis one and each of `upgrades.precompileUpgrades`, each once (the first spelling), in order.
 */
export function configuredAccounts(chainConfig: any, key: string): string[] {
  const configs = [chainConfig?.[key], ...((chainConfig?.upgrades?.precompileUpgrades ?? []) as any[]).map((u) => u?.[key])]
  return unique(configs.flatMap((c) => ROLE_KEYS.flatMap((k) => (Array.isArray(c?.[k]) ? (c[k] as string[]) : []))))
}

function unique(addresses: readonly string[]): string[] {
  const seen = new Map<string, string>()
  for (const a of addresses) if (!seen.has(a.toLowerCase())) seen.set(a.toLowerCase(), a)
  return [...seen.values()]
}

/** A RoleSet event decoded. */
export interface RoleChange {
  readonly precompile: string
  readonly account: string
  readonly role: bigint
  readonly oldRole: bigint
  readonly sender: string
  readonly txHash: string
  readonly blockNumber: number
}

/** The RoleSet events among `logs` (eth_getLogs), oldest first. */
export function roleChanges(logs: readonly any[]): RoleChange[] {
  return logs.flatMap((l) => {
    const ev = decodeLog(l.topics, l.data)
    if (ev?.name !== 'RoleSet') return []
    const [role, account, sender, oldRole] = ev.args.map((a) => a.value)
    return [{ precompile: l.address.toLowerCase(), account: account!, role: BigInt(role!), oldRole: BigInt(oldRole!), sender: sender!, txHash: l.transactionHash, blockNumber: num(l.blockNumber) }]
  })
}

/** An account that holds a role, and the last RoleSet event that named it (none: the chain config gave it). */
export interface RoleHolder {
  readonly account: string
  readonly role: bigint
  readonly last?: RoleChange
}

export interface ActivePrecompile {
  readonly key: string
  /** The known precompile, undefined for a key this page does not know. */
  readonly known?: KnownPrecompile
  /** The time it took effect (its config's blockTimestamp). */
  readonly since: number
  /** Its accounts with a role, when it is an allow list. */
  readonly roles?: readonly RoleHolder[]
}

export interface PrecompilesView {
  readonly blockNumber: number
  readonly active: readonly ActivePrecompile[]
  readonly fee: { readonly feeConfig: Record<string, number>; readonly lastChangedAt: number }
  /** The reward manager's state, when it is active. */
  readonly reward?: { readonly address: string; readonly feeRecipientsAllowed: boolean }
}

/** readAllowList calls per batch. */
const ROLE_BATCH = 500
/** Blocks per eth_getLogs: the node's default api-max-blocks-per-request. */
const LOG_WINDOW = 10_000

/** JSON-RPC's "method not found": a coreth chain does not serve subnet-evm's methods. */
const METHOD_NOT_FOUND = -32601

type Answer = Awaited<ReturnType<EvmApi['batch']>>[number]

const answered = (a: Answer): any => {
  if (!a.ok) throw a.error
  return a.value
}

/** eth_getActiveRulesAt's answer; undefined when the chain does not serve it (not a subnet-evm chain). */
function rulesOf(a: Answer): any | undefined {
  if (!a.ok && a.error.code === METHOD_NOT_FOUND) return undefined
  return answered(a)
}

const rulesCall = (time?: number) => ({ method: 'eth_getActiveRulesAt', params: time === undefined ? [] : [time] })

/** The rules active now, or undefined on a chain that is not subnet-evm's. */
export async function activeRules(api: EvmApi): Promise<any | undefined> {
  return rulesOf((await api.batch([rulesCall()]))[0]!)
}

/** eth_call of a precompile's function with address arguments, at block `tag`. */
const ethCall = (to: string, fn: string, tag: string, ...addresses: string[]) => ({
  method: 'eth_call',
  params: [{ to, data: selectorOf(fn) + addresses.map((a) => a.slice(2).toLowerCase().padStart(64, '0')).join('') }, tag],
})

const resultWord = (a: Answer): string => {
  const hex = answered(a) as string
  if (!/^0x[0-9a-fA-F]{64}/.test(hex)) throw new Error(`expected a 32-byte word, got ${hex}`)
  return hex.slice(2, 66)
}

/** Everything the precompiles page shows, read at the head block; undefined on a chain that is not subnet-evm's. */
export async function readPrecompiles(api: EvmApi): Promise<PrecompilesView | undefined> {
  const head = await api.call('eth_getBlockByNumber', ['latest', false])
  const tag: string = head.number
  const allowLists = PRECOMPILES.filter((p) => p.allowList)
  const hex = (n: number) => '0x' + n.toString(16)
  const logCalls: { method: string; params: unknown[] }[] = []
  for (let from = 0; from <= num(tag); from += LOG_WINDOW) {
    const filter = { fromBlock: hex(from), toBlock: hex(Math.min(from + LOG_WINDOW - 1, num(tag))), address: allowLists.map((p) => p.address), topics: [topicOf('RoleSet')] }
    logCalls.push({ method: 'eth_getLogs', params: [filter] })
  }
  const [rulesAnswer, config, fee, rewardAddress, recipients, ...logs] = await api.batch([
    rulesCall(num(head.timestamp)),
    { method: 'eth_getChainConfig', params: [] },
    { method: 'eth_feeConfig', params: [tag] },
    ethCall(REWARD_MANAGER, 'currentRewardAddress', tag),
    ethCall(REWARD_MANAGER, 'areFeeRecipientsAllowed', tag),
    ...logCalls,
  ])
  const rules = rulesOf(rulesAnswer!)
  if (rules === undefined) return undefined
  const active = Object.entries((rules.precompiles ?? {}) as Record<string, { timestamp: number }>)
    .map(([key, { timestamp }]) => ({ key, known: byKey(key), since: timestamp }))
    .sort((a, b) => (a.known?.address ?? '~' + a.key).localeCompare(b.known?.address ?? '~' + b.key))
  const changes = roleChanges(logs.flatMap((a) => answered(a) as any[]))
  const candidates = active.flatMap(({ known }) =>
    known?.allowList
      ? unique([...configuredAccounts(answered(config!), known.key), ...changes.filter((c) => c.precompile === known.address).map((c) => c.account)]).map((account) => ({ known, account }))
      : [],
  )
  // In batches under the node's batch-request-limit (1000 by default).
  const calls = candidates.map(({ known, account }) => ethCall(known.address, 'readAllowList', tag, account))
  const parts: (typeof calls)[] = []
  for (let i = 0; i < calls.length; i += ROLE_BATCH) parts.push(calls.slice(i, i + ROLE_BATCH))
  const roles = (await Promise.all(parts.map((part) => api.batch(part)))).flat()
  const holders = candidates
    .map(({ known, account }, i) => ({
      precompile: known.address,
      account,
      role: BigInt('0x' + resultWord(roles[i]!)),
      last: changes.filter((c) => c.precompile === known.address && c.account === account.toLowerCase()).at(-1),
    }))
    .filter((x) => x.role !== 0n)
    .sort((a, b) => (RANK[roleName(a.role)] ?? 3) - (RANK[roleName(b.role)] ?? 3))
  const rewardActive = active.some((p) => p.known?.address === REWARD_MANAGER)
  return {
    blockNumber: num(tag),
    active: active.map((p) => (p.known?.allowList ? { ...p, roles: holders.filter((x) => x.precompile === p.known!.address) } : p)),
    fee: answered(fee!),
    ...(rewardActive && {
      reward: { address: decodeWord('address', resultWord(rewardAddress!)), feeRecipientsAllowed: decodeWord('bool', resultWord(recipients!)) === 'true' },
    }),
  }
}
