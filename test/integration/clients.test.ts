import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { ContractFactory, JsonRpcProvider, Wallet, isError, parseEther, type Contract } from 'ethers'
import { BaseError, ContractFunctionRevertedError, createPublicClient, createWalletClient, defineChain, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EWOQ_ADDRESS, EWOQ_KEY, contracts, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * Real clients against the real node, with no special options beyond fast polling.
 * ethers v6 quirk: JsonRpcProvider caches identical requests for 250 ms (`cacheTimeout`), so two
 * back-to-back sends from one Wallet would both read the same stale `pending` nonce, against anvil
 * and hardhat node as here. The client-side remedy is ethers' NonceManager (the README example in
 * chains.test.ts); the node-side one, the opt-in pending-nonce guard, is what the first describe
 * checks with ethers' defaults. The other ethers provider here uses `cacheTimeout: -1`.
 */

describe('ethers v6 with default options and --pending-nonce-guard 250', () => {
  let node: TestNode
  let provider: JsonRpcProvider
  beforeAll(async () => {
    node = await startTestNode({ config: { pendingNonceGuard: 250 } })
    provider = new JsonRpcProvider(node.url)
  })
  afterAll(async () => {
    provider.destroy()
    await node.close()
  })

  it('sends, deploys and transacts back to back from one wallet without a stale nonce', async () => {
    const wallet = new Wallet(EWOQ_KEY, provider)
    const bob = Wallet.createRandom().address
    const first = await wallet.sendTransaction({ to: bob, value: 1n })
    expect((await first.wait())!.status).toBe(1)
    const token = (await new ContractFactory(TOKEN.abi, TOKEN.bytecode, wallet).deploy(1000n)) as Contract
    await token.waitForDeployment()
    const receipt = await (await token.getFunction('transfer')(bob, 7n)).wait()
    expect(receipt!.status).toBe(1)
    const last = await wallet.sendTransaction({ to: bob, value: 2n })
    expect((await last.wait())!.status).toBe(1)
    expect(await token.getFunction('balanceOf')(bob)).toBe(7n)
    expect(await provider.getBalance(bob)).toBe(3n)
    expect(await provider.getTransactionCount(EWOQ_ADDRESS, 'latest')).toBe(4)
  })
})

const TOKEN = contracts.contracts.TestToken
const PROBE = contracts.contracts.Probe
const CAST = join(process.cwd(), 'node_modules/@foundry-rs/cast-linux-amd64/bin/cast')
const run = promisify(execFile)

describe('ethers v6', () => {
  let node: TestNode
  let provider: JsonRpcProvider
  let wallet: Wallet
  let token: Contract
  const bob = Wallet.createRandom().address

  beforeAll(async () => {
    node = await startTestNode()
    provider = new JsonRpcProvider(node.url, undefined, { cacheTimeout: -1, pollingInterval: 20 })
    wallet = new Wallet(EWOQ_KEY, provider)
  })
  afterAll(async () => {
    provider.destroy()
    await node.close()
  })

  it('reads chain ID, balance and fee data', async () => {
    expect((await provider.getNetwork()).chainId).toBe(43112n)
    expect(await provider.getBalance(EWOQ_ADDRESS, 0)).toBe(0x295be96e64066972000000n)
    const fees = await provider.getFeeData()
    expect(fees.maxFeePerGas).not.toBeNull()
    expect(fees.maxPriorityFeePerGas).toBe(1n)
  })

  it('deploys TestToken with ContractFactory, transfers, reads balanceOf', async () => {
    const factory = new ContractFactory(TOKEN.abi, TOKEN.bytecode, wallet)
    token = (await factory.deploy(1000n)) as Contract
    await token.waitForDeployment()
    expect(await provider.getCode(await token.getAddress())).toBe(TOKEN.deployedBytecode)
    const tx = await token.getFunction('transfer')(bob, 10n)
    const receipt = await tx.wait()
    expect(receipt!.status).toBe(1)
    expect(receipt!.logs).toHaveLength(1)
    expect(token.interface.parseLog(receipt!.logs[0]!)!.name).toBe('Transfer')
    expect(await token.getFunction('balanceOf')(bob)).toBe(10n)
    expect(await token.getFunction('balanceOf')(EWOQ_ADDRESS)).toBe(990n)
  })

  it('parses a custom error revert (InsufficientBalance) from eth_call and from gas estimation', async () => {
    const poor = Wallet.createRandom().connect(provider)
    const asPoor = token.connect(poor) as Contract
    const viaCall = await asPoor
      .getFunction('transfer')
      .staticCall(bob, 5n)
      .catch((e: unknown) => e)
    expect(isError(viaCall, 'CALL_EXCEPTION')).toBe(true)
    if (!isError(viaCall, 'CALL_EXCEPTION')) return
    expect(viaCall.revert?.name).toBe('InsufficientBalance')
    expect([...(viaCall.revert?.args ?? [])]).toEqual([0n, 5n])
    const viaEstimate = await asPoor
      .getFunction('transfer')
      .estimateGas(bob, 5n)
      .catch((e: unknown) => e)
    expect(isError(viaEstimate, 'CALL_EXCEPTION')).toBe(true)
    // ethers decodes only Error(string) at the provider level; the revert data is there to decode.
    if (isError(viaEstimate, 'CALL_EXCEPTION')) expect(token.interface.parseError(viaEstimate.data!)?.name).toBe('InsufficientBalance')
  })

  it('parses a require reason', async () => {
    const probe = (await (await new ContractFactory(PROBE.abi, PROBE.bytecode, wallet).deploy()).waitForDeployment()) as Contract
    const err = await probe
      .getFunction('fail')
      .staticCall('nope')
      .catch((e: unknown) => e)
    expect(isError(err, 'CALL_EXCEPTION') && err.reason).toBe('nope')
  })

  it('back-to-back sends from one wallet get consecutive nonces (cacheTimeout -1)', async () => {
    const t1 = await wallet.sendTransaction({ to: bob, value: parseEther('1') })
    const t2 = await wallet.sendTransaction({ to: bob, value: parseEther('2') })
    expect(t2.nonce).toBe(t1.nonce + 1)
    const [r1, r2] = await Promise.all([t1.wait(), t2.wait()])
    expect(r1!.status).toBe(1)
    expect(r2!.status).toBe(1)
    expect(await provider.getBalance(bob)).toBe(parseEther('3'))
  })
})

describe('viem', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  it('deployContract, writeContract, readContract, waitForTransactionReceipt, simulateContract reverts', async () => {
    const chain = defineChain({
      id: 43112,
      name: 'Avalanche Local C-Chain',
      nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
      rpcUrls: { default: { http: [node.url] } },
    })
    const account = privateKeyToAccount(EWOQ_KEY)
    const wallet = createWalletClient({ account, chain, transport: http(node.url) })
    const client = createPublicClient({ chain, transport: http(node.url), pollingInterval: 20 })
    const abi = TOKEN.abi as never
    expect(await client.getChainId()).toBe(43112)

    const deployHash = await wallet.deployContract({ abi, bytecode: TOKEN.bytecode as `0x${string}`, args: [1000n] })
    const deployed = await client.waitForTransactionReceipt({ hash: deployHash, pollingInterval: 20 })
    expect(deployed.status).toBe('success')
    const address = deployed.contractAddress!
    expect(await client.readContract({ address, abi, functionName: 'totalSupply' })).toBe(1000n)

    const bob = privateKeyToAccount(Wallet.createRandom().privateKey as `0x${string}`).address
    const hash = await wallet.writeContract({ address, abi, functionName: 'transfer', args: [bob, 250n] })
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    expect(receipt.status).toBe('success')
    expect(receipt.logs).toHaveLength(1)
    expect(await client.readContract({ address, abi, functionName: 'balanceOf', args: [bob] })).toBe(250n)
    expect(await client.readContract({ address, abi, functionName: 'balanceOf', args: [account.address] })).toBe(750n)

    const ok = await client.simulateContract({ account, address, abi, functionName: 'transfer', args: [bob, 1n] })
    expect(ok.result).toBe(true)
    const err = await client.simulateContract({ account: bob, address, abi, functionName: 'transfer', args: [account.address, 251n] }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(BaseError)
    const reverted = (err as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
    expect(reverted).toBeInstanceOf(ContractFunctionRevertedError)
    expect((reverted as ContractFunctionRevertedError).data?.errorName).toBe('InsufficientBalance')
    expect((reverted as ContractFunctionRevertedError).data?.args).toEqual([250n, 251n])

    // A plain value transfer with viem's own fee and gas defaults.
    const sendHash = await wallet.sendTransaction({ to: bob, value: 12345n })
    const sent = await client.waitForTransactionReceipt({ hash: sendHash, pollingInterval: 20 })
    expect(sent.gasUsed).toBe(21000n)
    expect(await client.getBalance({ address: bob })).toBe(12345n)
  })
})

describe('Foundry cast', () => {
  let node: TestNode
  const cast = async (...args: string[]) => (await run(CAST, args, { timeout: 20_000 })).stdout.trim()
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  it('send, receipt, balance, call, estimate, block-number', async () => {
    const bob = Wallet.createRandom().address
    const rpc = ['--rpc-url', node.url]
    expect(await cast('block-number', ...rpc)).toBe('0')
    expect(await cast('chain-id', ...rpc)).toBe('43112')

    const sent = JSON.parse(await cast('send', ...rpc, '--private-key', EWOQ_KEY, '--json', bob, '--value', '1000000000000000000'))
    expect(sent.status).toBe('0x1')
    expect(sent.gasUsed).toBe('0x5208')
    expect(await cast('balance', ...rpc, bob)).toBe('1000000000000000000')
    const receipt = JSON.parse(await cast('receipt', ...rpc, '--json', sent.transactionHash))
    expect(receipt.transactionHash).toBe(sent.transactionHash)
    expect(receipt.blockNumber).toBe('0x1')
    expect(await cast('block-number', ...rpc)).toBe('1')

    const deploy = JSON.parse(await cast('send', ...rpc, '--private-key', EWOQ_KEY, '--json', '--create', TOKEN.bytecode + '00'.repeat(31) + '64'))
    expect(deploy.status).toBe('0x1')
    const token = deploy.contractAddress as string
    expect(await cast('call', ...rpc, token, 'balanceOf(address)(uint256)', EWOQ_ADDRESS)).toBe('100')
    const transfer = JSON.parse(await cast('send', ...rpc, '--private-key', EWOQ_KEY, '--json', token, 'transfer(address,uint256)', bob, '7'))
    expect(transfer.status).toBe('0x1')
    expect(await cast('call', ...rpc, token, 'balanceOf(address)(uint256)', bob)).toBe('7')

    expect(await cast('estimate', ...rpc, '--from', EWOQ_ADDRESS, bob, '--value', '1')).toBe('21000')
    const estimate = Number(await cast('estimate', ...rpc, '--from', EWOQ_ADDRESS, token, 'transfer(address,uint256)', bob, '1'))
    expect(estimate).toBeGreaterThan(21000)
    // A revert surfaces the decoded custom error selector in cast's error output.
    const failed = await cast('call', ...rpc, '--from', bob, token, 'transfer(address,uint256)', EWOQ_ADDRESS, '8').catch((e: { stderr: string }) => e.stderr)
    expect(failed).toMatch(/execution reverted/)
  })
})
