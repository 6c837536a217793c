import { existsSync } from 'node:fs'
import { Wallet, id, zeroPadValue } from 'ethers'
import { createPublicClient, createWalletClient, defineChain, http, parseAbi, parseEther, parseEventLogs, parseGwei, rpcSchema } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CAST, cast } from '../helpers/devClients.js'
import { DEPLOYER_LIST, FEE_ABI, FEE_CONFIG, FEE_MANAGER, MINTCHAIN_ID, MINTER, MINTER_ABI, REWARD_MANAGER, TX_LIST, mintchainConfigDir, startMintchain } from '../helpers/subnetEvm.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { EWOQ_ADDRESS, EWOQ_KEY, type TestNode } from '../helpers/testNode.js'

/*
 * viem and Foundry's cast against a subnet-evm L1 (examples/chains/mintchain on the real node), as
 * an L1's users reach its stateful precompiles: roles read with readAllowList, native coin minted
 * with mintNativeCoin and its NativeCoinMinted event read back, the fee config changed through the
 * fee manager, subnet-evm's own RPC methods (eth_feeConfig, eth_getActiveRulesAt). The texts and
 * figures are subnet-evm's (docs/L1.md).
 */

const tempDir = tempDirs('cchain-l1-tools-')
/** Local Durango on subnet-evm (params/extras/network_upgrades.go: avalanchego's local time, 2020-12-05T05:00:00Z). */
const DURANGO = 1_607_144_400

let node: TestNode
let url: string
beforeAll(async () => {
  if (!existsSync(CAST)) throw new Error(`${CAST} is missing: run npm ci (the package @foundry-rs/cast-linux-amd64)`)
  ;({ node, url } = await startMintchain(mintchainConfigDir(tempDir)))
})
afterAll(async () => {
  await node?.close()
  tempDir.removeAll()
})

describe('cast on mintchain', () => {
  const stranger = Wallet.createRandom().address

  it('cast call readAllowList: ewoq is Admin (2) of every allow list, a stranger None (0)', async () => {
    for (const list of [DEPLOYER_LIST, MINTER, TX_LIST, FEE_MANAGER, REWARD_MANAGER]) {
      expect(await cast('call', '--rpc-url', url, list, 'readAllowList(address)(uint256)', EWOQ_ADDRESS)).toBe('2')
      expect(await cast('call', '--rpc-url', url, list, 'readAllowList(address)(uint256)', stranger)).toBe('0')
    }
  })

  it('cast send mintNativeCoin: the receipt with NativeCoinMinted, priced by cast at the 25 gwei base fee; cast balance', async () => {
    const to = Wallet.createRandom().address
    const sent = JSON.parse(await cast('send', '--rpc-url', url, '--private-key', EWOQ_KEY, MINTER, 'mintNativeCoin(address,uint256)', to, '1234567', '--json'))
    expect(sent.status).toBe('0x1')
    expect(sent.logs.map((l: { address: string; topics: string[]; data: string }) => [l.address, l.topics, BigInt(l.data)])).toEqual([
      [MINTER, [id('NativeCoinMinted(address,address,uint256)'), zeroPadValue(EWOQ_ADDRESS.toLowerCase(), 32), zeroPadValue(to.toLowerCase(), 32)], 1_234_567n],
    ])
    const block = JSON.parse(await cast('block', '--rpc-url', url, sent.blockNumber, '--json'))
    expect(BigInt(block.baseFeePerGas)).toBe(parseGwei('25'))
    expect(BigInt(sent.effectiveGasPrice)).toBeGreaterThanOrEqual(parseGwei('25'))
    expect(await cast('balance', '--rpc-url', url, to)).toBe('1234567')
  })

  it('cast call mintNativeCoin from a signer off the minter: non-enabled cannot mint', async () => {
    await expect(cast('call', '--rpc-url', url, '--from', stranger, MINTER, 'mintNativeCoin(address,uint256)', stranger, '1')).rejects.toThrow(`non-enabled cannot mint: ${stranger}`)
  })

  it("cast rpc eth_getActiveRulesAt: subnet-evm's rules and precompiles now, and before Durango", async () => {
    const now = JSON.parse(await cast('rpc', '--rpc-url', url, 'eth_getActiveRulesAt'))
    expect(now.ethRules).toMatchObject({ ChainID: MINTCHAIN_ID, IsCancun: true })
    expect(now.avalancheRules).toMatchObject({ IsSubnetEVM: true, IsDurango: true, IsEtna: true, IsGranite: true })
    expect(now.precompiles).toEqual({
      contractDeployerAllowListConfig: { timestamp: 0 },
      contractNativeMinterConfig: { timestamp: 0 },
      feeManagerConfig: { timestamp: 0 },
      rewardManagerConfig: { timestamp: 0 },
      txAllowListConfig: { timestamp: 0 },
      warpConfig: { timestamp: 1_732_999_936 },
    })
    const before = JSON.parse(await cast('rpc', '--rpc-url', url, 'eth_getActiveRulesAt', String(DURANGO - 1)))
    expect(before.avalancheRules).toMatchObject({ IsSubnetEVM: true, IsDurango: false, IsEtna: false })
    expect(before.ethRules).toMatchObject({ IsShanghai: false, IsCancun: false })
    // Warp's blockTimestamp is later: not yet active.
    expect(Object.keys(before.precompiles)).not.toContain('warpConfig')
  })
})

describe('viem on mintchain', () => {
  const minterAbi = parseAbi(MINTER_ABI)
  const feeAbi = parseAbi(FEE_ABI)
  /** subnet-evm's eth_feeConfig (internal/ethapi/api_extra.go), typed for viem's request. */
  type L1Rpc = [{ Method: 'eth_feeConfig'; Parameters: [] | [block: `0x${string}`]; ReturnType: { feeConfig: typeof FEE_CONFIG; lastChangedAt: number } }]
  const clients = () => {
    const chain = defineChain({ id: MINTCHAIN_ID, name: 'mintchain', nativeCurrency: { name: 'Mint', symbol: 'MINT', decimals: 18 }, rpcUrls: { default: { http: [url] } } })
    return {
      client: createPublicClient({ chain, transport: http(), rpcSchema: rpcSchema<L1Rpc>() }),
      wallet: createWalletClient({ chain, transport: http(), account: privateKeyToAccount(EWOQ_KEY as `0x${string}`) }),
    }
  }

  it('readContract readAllowList: ewoq Admin of the minter, a stranger None', async () => {
    const { client } = clients()
    expect(await client.readContract({ address: MINTER, abi: minterAbi, functionName: 'readAllowList', args: [EWOQ_ADDRESS] })).toBe(2n)
    expect(await client.readContract({ address: MINTER, abi: minterAbi, functionName: 'readAllowList', args: [Wallet.createRandom().address as `0x${string}`] })).toBe(0n)
  })

  it('simulateContract and writeContract mintNativeCoin: the balance, and NativeCoinMinted from parseEventLogs and getLogs', async () => {
    const { client, wallet } = clients()
    const to = Wallet.createRandom().address as `0x${string}`
    const { request } = await client.simulateContract({ account: wallet.account, address: MINTER, abi: minterAbi, functionName: 'mintNativeCoin', args: [to, parseEther('3')] })
    const receipt = await client.waitForTransactionReceipt({ hash: await wallet.writeContract(request) })
    expect(receipt.status).toBe('success')
    expect(await client.getBalance({ address: to })).toBe(parseEther('3'))
    const minted = { sender: EWOQ_ADDRESS, recipient: to, amount: parseEther('3') }
    expect(parseEventLogs({ abi: minterAbi, logs: receipt.logs }).map((l) => [l.address, l.eventName, l.args])).toEqual([[MINTER, 'NativeCoinMinted', minted]])
    const logs = await client.getLogs({ address: MINTER, event: minterAbi.find((i) => i.type === 'event' && i.name === 'NativeCoinMinted')!, args: { recipient: to }, fromBlock: 0n })
    expect(logs.map((l) => [l.transactionHash, l.args])).toEqual([[receipt.transactionHash, minted]])
    // viem priced it from the chain's base fee (the fee config's minimum, 25 gwei).
    expect((await client.getBlock({ blockNumber: receipt.blockNumber })).baseFeePerGas).toBe(parseGwei('25'))
    expect(receipt.effectiveGasPrice).toBeGreaterThanOrEqual(parseGwei('25'))
  })

  it('simulateContract mintNativeCoin from a signer off the minter: non-enabled cannot mint', async () => {
    const { client } = clients()
    const stranger = Wallet.createRandom().address as `0x${string}`
    await expect(client.simulateContract({ account: stranger, address: MINTER, abi: minterAbi, functionName: 'mintNativeCoin', args: [stranger, 1n] })).rejects.toThrow(
      `non-enabled cannot mint: ${stranger}`,
    )
  })

  it("writeContract setFeeConfig: FeeConfigChanged, getFeeConfig, eth_feeConfig, and the next block's gas limit and base fee", async () => {
    const { client, wallet } = clients()
    const next = { ...FEE_CONFIG, gasLimit: 15_000_000, minBaseFee: 28_000_000_000 }
    const asArgs = (c: typeof FEE_CONFIG) => Object.values(c).map(BigInt) as [bigint, bigint, bigint, bigint, bigint, bigint, bigint, bigint]
    const asTuple = (c: typeof FEE_CONFIG) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, BigInt(v)]))
    const hash = await wallet.writeContract({ address: FEE_MANAGER, abi: feeAbi, functionName: 'setFeeConfig', args: asArgs(next) })
    const receipt = await client.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(parseEventLogs({ abi: feeAbi, logs: receipt.logs }).map((l) => [l.eventName, l.args])).toEqual([
      ['FeeConfigChanged', { sender: EWOQ_ADDRESS, oldFeeConfig: asTuple(FEE_CONFIG), newFeeConfig: asTuple(next) }],
    ])
    expect(await client.readContract({ address: FEE_MANAGER, abi: feeAbi, functionName: 'getFeeConfig' })).toEqual(asArgs(next))
    expect(await client.readContract({ address: FEE_MANAGER, abi: feeAbi, functionName: 'getFeeConfigLastChangedAt' })).toBe(receipt.blockNumber)
    expect(await client.request({ method: 'eth_feeConfig', params: [] })).toEqual({ feeConfig: next, lastChangedAt: Number(receipt.blockNumber) })
    expect(await client.request({ method: 'eth_feeConfig', params: [`0x${(receipt.blockNumber - 1n).toString(16)}`] })).toEqual({ feeConfig: FEE_CONFIG, lastChangedAt: 0 })
    // The next block: the new gas limit, and the base fee raised to the new minimum; viem's fees still cover it.
    const after = await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: EWOQ_ADDRESS, value: 1n }) })
    const block = await client.getBlock({ blockNumber: after.blockNumber })
    expect([block.gasLimit, block.baseFeePerGas]).toEqual([15_000_000n, parseGwei('28')])
  })
})
