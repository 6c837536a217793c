import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Contract, ContractFactory, type HDNodeWallet, JsonRpcProvider, Wallet, getBytes, parseEther } from 'ethers'
import { GETH_HEADER_KEYS, headerHashOf } from '../helpers/headerHash.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ALLOW_LIST,
  BLACKHOLE,
  DEPLOYER_LIST,
  FEE_ABI,
  FEE_CONFIG,
  FEE_MANAGER,
  MINTER,
  MINTER_ABI,
  REWARD_ABI,
  REWARD_MANAGER,
  TX_LIST,
  mintchainConfigDir,
  rpcAnswer,
  startMintchain,
} from '../helpers/subnetEvm.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { EWOQ_ADDRESS, EWOQ_KEY, contracts, type TestNode } from '../helpers/testNode.js'

/*
 * A subnet-evm chain from an avalanche-cli style genesis, unchanged (examples/chains/mintchain: all
 * five stateful precompiles with ewoq as their admin, Warp), driven with ethers as an L1's users do.
 * The figures are subnet-evm's (docs/L1.md names the files): its header layout, fee config, gas
 * costs, events and error texts.
 */

const tempDir = tempDirs('subnet-evm-')
afterAll(() => tempDir.removeAll())

/** A subnet-evm header's RLP fields in its order (subnet-evm customtypes/header_ext.go): geth's 15, then its optional ones. */
const HEADER_KEYS = [...GETH_HEADER_KEYS, 'baseFeePerGas', 'blockGasCost', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'timestampMilliseconds', 'minDelayExcess']

/** The hash subnet-evm gives the header of a block's JSON, encoded by ethers. */
const headerHash = (b: Record<string, string>) => headerHashOf(b, HEADER_KEYS)

/** EIP-2028 calldata gas. */
const calldataGas = (data: string) => getBytes(data).reduce((n, b) => n + (b === 0 ? 4 : 16), 0)

describe('a subnet-evm chain from an avalanche-cli genesis (examples/chains/mintchain)', () => {
  let node: TestNode
  let dir: string
  let provider: JsonRpcProvider
  let ewoq: Wallet
  let url: string
  const rpc = (method: string, params: unknown[] = []) => rpcAnswer(url, method, params)
  const fund = async (to: string) => (await ewoq.sendTransaction({ to, value: parseEther('10') })).wait()
  /** A transaction that fails in its block: mined, its receipt (the node answers a failed send as hardhat node does, with the hash in the error). */
  const sendFailing = async (wallet: Wallet | HDNodeWallet, tx: { to?: string; data: string; gasLimit: bigint }) => {
    const raw = await wallet.signTransaction({ ...tx, nonce: await provider.getTransactionCount(wallet.address), chainId: 99903n, maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 1n, type: 2 })
    const answer = await rpc('eth_sendRawTransaction', [raw])
    const hash = answer.result ?? (answer.error as { data?: { txHash?: string } } | undefined)?.data?.txHash
    return (await rpc('eth_getTransactionReceipt', [hash])).result
  }

  beforeAll(async () => {
    dir = mintchainConfigDir(tempDir)
    ;({ node, url } = await startMintchain(dir))
    provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 })
    ewoq = new Wallet(EWOQ_KEY, provider)
  })
  afterAll(async () => {
    provider?.destroy()
    await node?.close()
  })

  it("starts the chain with subnet-evm's genesis header, its hash from the header's own RLP", async () => {
    const genesis = (await rpc('eth_getBlockByNumber', ['0x0', false])).result
    expect(genesis.hash).toBe(headerHash(genesis))
    // No coreth atomic fields; the fee config's minimum base fee; Etna's and Granite's fields.
    expect(genesis.extDataHash).toBeUndefined()
    expect(genesis.extDataGasUsed).toBeUndefined()
    expect(genesis.blockExtraData).toBeUndefined()
    expect(BigInt(genesis.baseFeePerGas)).toBe(25_000_000_000n)
    expect(genesis.blockGasCost).toBe('0x0')
    expect(BigInt(genesis.timestampMilliseconds)).toBe(BigInt(genesis.timestamp) * 1000n)
    expect(BigInt(genesis.minDelayExcess)).toBe(7_970_124n)
    expect(BigInt(genesis.gasLimit)).toBe(12_000_000n)
    expect((await provider.getNetwork()).chainId).toBe(99903n)
  })

  it('gives each enabled precompile code 0x01 and nonce 1, and Warp from its timestamp', async () => {
    for (const address of [DEPLOYER_LIST, MINTER, TX_LIST, FEE_MANAGER, REWARD_MANAGER, '0x0200000000000000000000000000000000000005']) {
      expect(await provider.getCode(address)).toBe('0x01')
      expect(await provider.getTransactionCount(address)).toBe(1)
    }
    // The deprecated native-asset contracts are coreth's, not subnet-evm's: an empty account.
    expect(await provider.getCode('0x0100000000000000000000000000000000000001')).toBe('0x')
  })

  it('answers eth_getChainConfig, eth_getActiveRulesAt and eth_feeConfig as subnet-evm', async () => {
    const config = (await rpc('eth_getChainConfig')).result
    expect(config.chainId).toBe(99903)
    expect(config.feeConfig).toEqual(FEE_CONFIG)
    // As subnet-evm's module marshals it: the allow list first, addresses in lower case, then the upgrade's time.
    expect(JSON.stringify(config.contractNativeMinterConfig)).toBe(JSON.stringify({ adminAddresses: [EWOQ_ADDRESS.toLowerCase()], blockTimestamp: 0 }))
    expect(config.warpConfig).toEqual({ blockTimestamp: 1732999936, quorumNumerator: 67, requirePrimaryNetworkSigners: false })
    expect(config.upgrades).toEqual({})
    expect(config.durangoTimestamp).toBe(1607144400)
    expect(Object.keys(config).at(-1)).toBe('upgrades')
    const rules = (await rpc('eth_getActiveRulesAt')).result
    expect(rules.avalancheRules).toMatchObject({ IsSubnetEVM: true, IsDurango: true, IsEtna: true, IsGranite: true })
    expect(rules.ethRules).toMatchObject({ ChainID: 99903, IsCancun: true, IsPrague: false })
    expect(Object.keys(rules.precompiles)).toEqual(['contractDeployerAllowListConfig', 'contractNativeMinterConfig', 'feeManagerConfig', 'rewardManagerConfig', 'txAllowListConfig', 'warpConfig'])
    expect(rules.precompiles.warpConfig).toEqual({ timestamp: 1732999936 })
    expect((await rpc('eth_feeConfig')).result).toEqual({ feeConfig: FEE_CONFIG, lastChangedAt: 0 })
  })

  it('mints native coin for an admin: the balance, the NativeCoinMinted event and 30,000 + 1,756 gas', async () => {
    const minter = new Contract(MINTER, MINTER_ABI, ewoq)
    const to = Wallet.createRandom().address
    expect(await minter.readAllowList(EWOQ_ADDRESS)).toBe(2n)
    const tx = await minter.mintNativeCoin(to, parseEther('5'))
    const receipt = (await tx.wait())!
    expect(receipt.status).toBe(1)
    expect(receipt.gasUsed).toBe(BigInt(21_000 + calldataGas(tx.data) + 30_000 + 1_756))
    expect(await provider.getBalance(to)).toBe(parseEther('5'))
    const [log] = receipt.logs
    const parsed = minter.interface.parseLog(log!)!
    expect(parsed.name).toBe('NativeCoinMinted')
    expect(parsed.args.toArray()).toEqual([EWOQ_ADDRESS, to, parseEther('5')])
    // The block: subnet-evm's fee window and the empty predicate results in extraData, fees to the blackhole.
    const block = (await rpc('eth_getBlockByNumber', [`0x${receipt.blockNumber.toString(16)}`, false])).result
    expect(block.hash).toBe(headerHash(block))
    expect(getBytes(block.extraData).length).toBe(86)
    expect(block.miner).toBe(BLACKHOLE)
    expect(block.blockGasCost).toBe('0x0')
  })

  it('traces a mint and simulates blocks under the fee window', async () => {
    const minter = new Contract(MINTER, MINTER_ABI, ewoq)
    const to = Wallet.createRandom().address
    const tx = await minter.mintNativeCoin(to, 11n)
    await tx.wait()
    // The callTracer's frame: the precompile's gas (30,000 + 1,756) and its log.
    const trace = (await rpc('debug_traceTransaction', [tx.hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }])).result
    expect(BigInt(trace.gasUsed)).toBe(BigInt(21_000 + calldataGas(tx.data) + 31_756))
    expect(trace.logs[0].topics[2]).toBe(`0x${to.slice(2).toLowerCase().padStart(64, '0')}`)
    // eth_simulateV1 with validation: each block's base fee from the fee window over its parent (the fee config's minimum here), subnet-evm's header.
    const data = minter.interface.encodeFunctionData('mintNativeCoin', [to, 1n])
    const [sim] = (await rpc('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: EWOQ_ADDRESS, to: MINTER, data, maxFeePerGas: '0x174876e800' }] }], validation: true }, 'latest'])).result
    expect(BigInt(sim.baseFeePerGas)).toBe(25_000_000_000n)
    expect(sim.extDataHash).toBeUndefined()
    expect(sim.hash).toBe(headerHash(sim))
    expect(sim.calls[0].status).toBe('0x1')
  })

  it('keeps senders off the transaction allow list out of the pool, in its words', async () => {
    const stranger = Wallet.createRandom().connect(provider)
    await fund(stranger.address)
    const raw = await stranger.signTransaction({ to: EWOQ_ADDRESS, value: 1n, gasLimit: 21_000n, maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 1n, nonce: 0, chainId: 99903n, type: 2 })
    const answer = await rpc('eth_sendRawTransaction', [raw])
    expect(answer.error).toEqual({ code: -32000, message: `cannot issue transaction from non-allow listed address: ${stranger.address}` })
  })

  it('lets an admin enable a sender (RoleSet, 20,000 + 2,131 gas) who may transact but not mint or deploy', async () => {
    const txList = new Contract(TX_LIST, ALLOW_LIST, ewoq)
    const user = Wallet.createRandom().connect(provider)
    await fund(user.address)
    const tx = await txList.setEnabled(user.address)
    const receipt = (await tx.wait())!
    expect(receipt.gasUsed).toBe(BigInt(21_000 + calldataGas(tx.data) + 20_000 + 2_131))
    expect(txList.interface.parseLog(receipt.logs[0]!)!.args.toArray()).toEqual([1n, user.address, EWOQ_ADDRESS, 0n])
    expect(await txList.readAllowList(user.address)).toBe(1n)
    expect((await (await user.sendTransaction({ to: EWOQ_ADDRESS, value: 1n })).wait())!.status).toBe(1)

    // Not on the minter's list: an eth_call answers subnet-evm's error, a sent one fails with all its gas used.
    const minter = new Contract(MINTER, MINTER_ABI, user)
    const data = minter.interface.encodeFunctionData('mintNativeCoin', [user.address, 1n])
    expect((await rpc('eth_call', [{ from: user.address, to: MINTER, data }, 'latest'])).error).toEqual({ code: -32000, message: `non-enabled cannot mint: ${user.address}` })
    const failed = await sendFailing(user, { to: MINTER, data, gasLimit: 100_000n })
    expect(failed.status).toBe('0x0')
    expect(BigInt(failed.gasUsed)).toBe(100_000n)

    // Not on the deployer list: creation refused for tx.origin.
    const factory = new ContractFactory(contracts.contracts.Probe.abi, contracts.contracts.Probe.bytecode, user)
    const deploy = await factory.getDeployTransaction()
    expect((await rpc('eth_estimateGas', [{ from: user.address, data: deploy.data }])).error?.message).toBe(`tx.origin ${user.address} is not authorized to deploy a contract`)
    const refused = await sendFailing(user, { data: deploy.data, gasLimit: 500_000n })
    expect(refused.status).toBe('0x0')
    expect(BigInt(refused.gasUsed)).toBe(500_000n)
    // A CREATE inside a call is refused before its frame starts: the callTracer shows no child frame, and CREATE pushes 0 (the call goes on).
    const creator = '0x00000000000000000000000000000000000fac70'
    const traced = await rpc('debug_traceCall', [
      { from: user.address, to: creator, gas: '0x100000' },
      'latest',
      { tracer: 'callTracer', stateOverrides: { [creator]: { code: '0x600060006000f05000' } } },
    ])
    expect(traced.result.calls).toBeUndefined()
    expect(traced.result.error).toBeUndefined()
    // ewoq, the deployer list's admin, deploys.
    const counter = await new ContractFactory(contracts.contracts.Probe.abi, contracts.contracts.Probe.bytecode, ewoq).deploy()
    expect(await provider.getCode(await counter.getAddress())).not.toBe('0x')
  })

  it('lets a manager change enabled addresses only', async () => {
    const list = new Contract(DEPLOYER_LIST, ALLOW_LIST, ewoq)
    const manager = Wallet.createRandom().connect(provider)
    await fund(manager.address)
    await (await new Contract(TX_LIST, ALLOW_LIST, ewoq).setEnabled(manager.address)).wait()
    await (await list.setManager(manager.address)).wait()
    expect(await list.readAllowList(manager.address)).toBe(3n)
    const other = Wallet.createRandom().address
    await (await (list.connect(manager) as Contract).setEnabled(other)).wait()
    expect(await list.readAllowList(other)).toBe(1n)
    const data = list.interface.encodeFunctionData('setAdmin', [other])
    // subnet-evm names the caller, and the role the target holds (Enabled) and would get.
    expect((await rpc('eth_call', [{ from: manager.address, to: DEPLOYER_LIST, data }, 'latest'])).error?.message).toBe(
      `cannot modify allow list: modify address: ${manager.address}, from role: EnabledRole, to role: AdminRole`,
    )
  })

  it("changes the fee config through the fee manager: eth_feeConfig, the next blocks' gas limit and base fee", async () => {
    const fees = new Contract(FEE_MANAGER, FEE_ABI, ewoq)
    const next = { ...FEE_CONFIG, gasLimit: 15_000_000, minBaseFee: 30_000_000_000 }
    const receipt = (await (await fees.setFeeConfig(...Object.values(next))).wait())!
    expect(fees.interface.parseLog(receipt.logs[0]!)!.name).toBe('FeeConfigChanged')
    expect((await fees.getFeeConfig()).toArray().map(Number)).toEqual(Object.values(next))
    expect(await fees.getFeeConfigLastChangedAt()).toBe(BigInt(receipt.blockNumber))
    expect((await rpc('eth_feeConfig')).result).toEqual({ feeConfig: next, lastChangedAt: receipt.blockNumber })
    // The config at a block before the change stays the genesis one.
    expect((await rpc('eth_feeConfig', [`0x${(receipt.blockNumber - 1).toString(16)}`])).result).toEqual({ feeConfig: FEE_CONFIG, lastChangedAt: 0 })
    const after = (await (await ewoq.sendTransaction({ to: EWOQ_ADDRESS, value: 1n })).wait())!
    const block = (await rpc('eth_getBlockByNumber', [`0x${after.blockNumber.toString(16)}`, false])).result
    expect(BigInt(block.gasLimit)).toBe(15_000_000n)
    expect(BigInt(block.baseFeePerGas)).toBeGreaterThanOrEqual(30_000_000_000n)
    expect(block.hash).toBe(headerHash(block))
  })

  it("sends the fees to the reward manager's address", async () => {
    const rewards = new Contract(REWARD_MANAGER, REWARD_ABI, ewoq)
    const rewardAddress = Wallet.createRandom().address
    await (await rewards.setRewardAddress(rewardAddress)).wait()
    expect(await rewards.currentRewardAddress()).toBe(rewardAddress)
    expect(await rewards.areFeeRecipientsAllowed()).toBe(false)
    const receipt = (await (await ewoq.sendTransaction({ to: EWOQ_ADDRESS, value: 1n })).wait())!
    const block = (await rpc('eth_getBlockByNumber', [`0x${receipt.blockNumber.toString(16)}`, false])).result
    expect(block.miner).toBe(rewardAddress.toLowerCase())
    // The whole fee, base fee included, as subnet-evm's state transition pays it.
    expect(await provider.getBalance(rewardAddress)).toBe(receipt.gasUsed * receipt.gasPrice)
    await (await rewards.disableRewards()).wait()
    const later = (await (await ewoq.sendTransaction({ to: EWOQ_ADDRESS, value: 1n })).wait())!
    expect((await rpc('eth_getBlockByNumber', [`0x${later.blockNumber.toString(16)}`, false])).result.miner).toBe(BLACKHOLE)
  })

  it('reverts a precompile change with evm_revert and keeps the chain across a restart', async () => {
    const minter = new Contract(MINTER, MINTER_ABI, ewoq)
    const to = Wallet.createRandom().address
    const snapshot = (await rpc('evm_snapshot')).result
    await (await minter.mintNativeCoin(to, 7n)).wait()
    expect(await provider.getBalance(to)).toBe(7n)
    expect((await rpc('evm_revert', [snapshot])).result).toBe(true)
    expect(await provider.getBalance(to)).toBe(0n)
    await (await minter.mintNativeCoin(to, 9n)).wait()
    const head = await provider.getBlockNumber()
    await node.stop()
    ;({ node, url } = await startMintchain(dir, node.dataDir))
    provider.destroy()
    provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 })
    ewoq = new Wallet(EWOQ_KEY, provider)
    expect(await provider.getBlockNumber()).toBe(head)
    expect(await provider.getBalance(to)).toBe(9n)
    expect((await rpc('eth_feeConfig')).result.feeConfig.gasLimit).toBe(15_000_000)
  })
})

describe("a subnet-evm chain's upgrade.json", () => {
  let node: TestNode
  let dir: string
  let url: string
  const rpc = (method: string, params: unknown[] = []) => rpcAnswer(url, method, params)
  const disableAt = Math.floor(Date.now() / 1000) + 3_600
  const newAdmin = Wallet.createRandom()

  beforeAll(async () => {
    dir = mintchainConfigDir(tempDir)
    const upgrades = [
      { contractNativeMinterConfig: { blockTimestamp: disableAt, disable: true } },
      { contractNativeMinterConfig: { blockTimestamp: disableAt + 60, adminAddresses: [newAdmin.address] } },
    ]
    writeFileSync(join(dir, 'mintchain', 'upgrade.json'), JSON.stringify({ precompileUpgrades: upgrades }))
    ;({ node, url } = await startMintchain(dir))
  })
  afterAll(() => node?.close())

  it('disables the native minter at its time (code and storage gone) and enables it again with new roles', async () => {
    const minter = new Contract(MINTER, MINTER_ABI)
    const role = async (address: string) => BigInt((await rpc('eth_call', [{ to: MINTER, data: minter.interface.encodeFunctionData('readAllowList', [address]) }, 'latest'])).result)
    expect(await role(EWOQ_ADDRESS)).toBe(2n)
    expect((await rpc('eth_getChainConfig')).result.upgrades.precompileUpgrades).toEqual([
      { contractNativeMinterConfig: { blockTimestamp: disableAt, disable: true } },
      { contractNativeMinterConfig: { adminAddresses: [newAdmin.address.toLowerCase()], blockTimestamp: disableAt + 60 } },
    ])
    await rpc('evm_mine', [disableAt])
    expect((await rpc('eth_getCode', [MINTER, 'latest'])).result).toBe('0x')
    expect((await rpc('eth_getActiveRulesAt')).result.precompiles.contractNativeMinterConfig).toBeUndefined()
    // A call to a disabled precompile is a call to an empty account.
    expect((await rpc('eth_call', [{ to: MINTER, data: minter.interface.encodeFunctionData('readAllowList', [EWOQ_ADDRESS]) }, 'latest'])).result).toBe('0x')
    await rpc('evm_mine', [disableAt + 60])
    expect((await rpc('eth_getCode', [MINTER, 'latest'])).result).toBe('0x01')
    expect(await role(EWOQ_ADDRESS)).toBe(0n)
    expect(await role(newAdmin.address)).toBe(2n)
    expect((await rpc('eth_getActiveRulesAt')).result.precompiles.contractNativeMinterConfig).toEqual({ timestamp: disableAt + 60 })
  })

  it('refuses an upgrade file subnet-evm refuses, naming the chain', async () => {
    const bad = mintchainConfigDir(tempDir)
    writeFileSync(
      join(bad, 'mintchain', 'upgrade.json'),
      JSON.stringify({ precompileUpgrades: [{ contractNativeMinterConfig: { blockTimestamp: disableAt } }, { contractNativeMinterConfig: { blockTimestamp: disableAt - 10, disable: true } }] }),
    )
    const { node: other } = await startMintchain(bad)
    try {
      const health = await other.api('/ext/health', 'health.health')
      expect(JSON.stringify(health.result)).toContain('invalid precompile upgrades')
    } finally {
      await other.close()
    }
  })
})
