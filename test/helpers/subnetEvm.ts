import { cpSync } from 'node:fs'
import { join } from 'node:path'
import type { TempDirs } from './tempDirs.js'
import { type RpcAnswer, startTestNode, type TestNode } from './testNode.js'

/*
 * examples/chains/mintchain, the avalanche-cli style subnet-evm genesis (all five stateful
 * precompiles with ewoq as their admin, Warp), as the subnet-evm chain tests run it, and the
 * precompiles' addresses and interfaces (subnet-evm precompile/allowlist, precompile/contracts/*) in
 * the human-readable form ethers and viem both read.
 */

export const MINTCHAIN = join(process.cwd(), 'examples/chains/mintchain')
/** mintchain's EVM chain ID (its genesis' config.chainId). */
export const MINTCHAIN_ID = 99903

export const DEPLOYER_LIST = '0x0200000000000000000000000000000000000000'
export const MINTER = '0x0200000000000000000000000000000000000001'
export const TX_LIST = '0x0200000000000000000000000000000000000002'
export const FEE_MANAGER = '0x0200000000000000000000000000000000000003'
export const REWARD_MANAGER = '0x0200000000000000000000000000000000000004'
/** Where subnet-evm's fees go when no reward address is set. */
export const BLACKHOLE = '0x0100000000000000000000000000000000000000'

export const ALLOW_LIST = [
  'function readAllowList(address) view returns (uint256)',
  'function setAdmin(address)',
  'function setEnabled(address)',
  'function setManager(address)',
  'function setNone(address)',
  'event RoleSet(uint256 indexed role, address indexed account, address indexed sender, uint256 oldRole)',
] as const
export const FEE_TUPLE =
  'uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep'
export const MINTER_ABI = [...ALLOW_LIST, 'function mintNativeCoin(address, uint256)', 'event NativeCoinMinted(address indexed sender, address indexed recipient, uint256 amount)'] as const
export const FEE_ABI = [
  ...ALLOW_LIST,
  `event FeeConfigChanged(address indexed sender, (${FEE_TUPLE}) oldFeeConfig, (${FEE_TUPLE}) newFeeConfig)`,
  `function setFeeConfig(${FEE_TUPLE})`,
  `function getFeeConfig() view returns (${FEE_TUPLE})`,
  'function getFeeConfigLastChangedAt() view returns (uint256)',
] as const
export const REWARD_ABI = [
  ...ALLOW_LIST,
  'function setRewardAddress(address)',
  'function allowFeeRecipients()',
  'function disableRewards()',
  'function currentRewardAddress() view returns (address)',
  'function areFeeRecipientsAllowed() view returns (bool)',
] as const

/** The genesis fee config of examples/chains/mintchain. */
export const FEE_CONFIG = {
  gasLimit: 12_000_000,
  targetBlockRate: 2,
  minBaseFee: 25_000_000_000,
  targetGas: 60_000_000,
  baseFeeChangeDenominator: 36,
  minBlockGasCost: 0,
  maxBlockGasCost: 1_000_000,
  blockGasCostStep: 200_000,
}

/** A chain config directory from `tempDir` holding a copy of mintchain (a test may add an upgrade.json to it). */
export function mintchainConfigDir(tempDir: TempDirs): string {
  const dir = tempDir()
  cpSync(MINTCHAIN, join(dir, 'mintchain'), { recursive: true })
  return dir
}

/** mintchain's JSON-RPC URL on `node`. */
export const mintchainUrl = (node: TestNode) => `http://127.0.0.1:${node.port}/ext/bc/mintchain/rpc`

/** The node with the chains of `configDir` (see mintchainConfigDir), on `dataDir` when given (a restart), and mintchain's URL on it. */
export async function startMintchain(configDir: string, dataDir?: string): Promise<{ node: TestNode; url: string }> {
  const node = await startTestNode({ dataDir, config: { chainConfigDir: configDir } as never })
  return { node, url: mintchainUrl(node) }
}

/** One JSON-RPC call to `url`: the whole answer, {result} or {error}. */
export async function rpcAnswer(url: string, method: string, params: unknown[] = []): Promise<RpcAnswer> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await res.json()) as RpcAnswer
}
