import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Contract, JsonRpcProvider, Wallet, parseEther } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GETH_HEADER_KEYS, headerHashOf } from '../helpers/headerHash.js'
import { EWOQ_ADDRESS, EWOQ_KEY, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * Forking a subnet-evm L1 (docs/L1.md): a chain folder with the L1's genesis and `fork-url` in its
 * config.json starts at the origin's head, with the origin's header fields, precompile state, roles
 * and fee config, and builds subnet-evm blocks on it. The origin is this node serving
 * examples/chains/mintchain.
 */

const MINTCHAIN = join(process.cwd(), 'examples/chains/mintchain')
const MINTER = '0x0200000000000000000000000000000000000001'
const TX_LIST = '0x0200000000000000000000000000000000000002'
const FEE_MANAGER = '0x0200000000000000000000000000000000000003'
const HEADER_KEYS = [...GETH_HEADER_KEYS, 'baseFeePerGas', 'blockGasCost', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'timestampMilliseconds', 'minDelayExcess']
const FEE_TUPLE = 'uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256'

describe('a fork of a subnet-evm L1', () => {
  let origin: TestNode
  let fork: TestNode
  const dirs: string[] = []
  const user = Wallet.createRandom()
  const minted = Wallet.createRandom().address
  let originHead: { number: string; hash: string }
  let changedAt: number
  let forkUrl: string
  const rpc = (url: string, method: string, params: unknown[] = []) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }).then(
      (r) => r.json() as Promise<{ result?: any; error?: { code: number; message: string } }>,
    )

  beforeAll(async () => {
    const originDir = mkdtempSync(join(tmpdir(), 'subnet-evm-origin-'))
    dirs.push(originDir)
    cpSync(MINTCHAIN, join(originDir, 'mintchain'), { recursive: true })
    origin = await startTestNode({ config: { chainConfigDir: originDir } as never })
    const originUrl = `http://127.0.0.1:${origin.port}/ext/bc/mintchain/rpc`
    const provider = new JsonRpcProvider(originUrl, undefined, { staticNetwork: true, cacheTimeout: -1 })
    const ewoq = new Wallet(EWOQ_KEY, provider)
    await (await new Contract(MINTER, ['function mintNativeCoin(address,uint256)'], ewoq).mintNativeCoin(minted, parseEther('5'))).wait()
    await (await new Contract(TX_LIST, ['function setEnabled(address)'], ewoq).setEnabled(user.address)).wait()
    await (await ewoq.sendTransaction({ to: user.address, value: parseEther('1') })).wait()
    const fees = new Contract(FEE_MANAGER, [`function setFeeConfig(${FEE_TUPLE})`], ewoq)
    changedAt = (await (await fees.setFeeConfig(15_000_000, 2, 25_000_000_000, 60_000_000, 36, 0, 1_000_000, 200_000)).wait())!.blockNumber
    provider.destroy()
    originHead = (await rpc(originUrl, 'eth_getBlockByNumber', ['latest', false])).result

    // The fork: the same genesis (its rules), fork-url to the origin's chain.
    const forkDir = mkdtempSync(join(tmpdir(), 'subnet-evm-fork-'))
    dirs.push(forkDir)
    mkdirSync(join(forkDir, 'mintchain'))
    cpSync(join(MINTCHAIN, 'genesis.json'), join(forkDir, 'mintchain', 'genesis.json'))
    writeFileSync(join(forkDir, 'mintchain', 'config.json'), JSON.stringify({ 'fork-url': originUrl }))
    fork = await startTestNode({ config: { chainConfigDir: forkDir } as never })
    forkUrl = `http://127.0.0.1:${fork.port}/ext/bc/mintchain/rpc`
  })
  afterAll(async () => {
    await fork?.close()
    await origin?.close()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  it("starts at the origin's head with its header, balances, roles and fee config", async () => {
    const head = (await rpc(forkUrl, 'eth_getBlockByNumber', ['latest', false])).result
    expect(head.hash).toBe(originHead.hash)
    expect(head.number).toBe(originHead.number)
    expect(BigInt((await rpc(forkUrl, 'eth_getBalance', [minted, 'latest'])).result)).toBe(parseEther('5'))
    expect((await rpc(forkUrl, 'eth_getCode', [MINTER, 'latest'])).result).toBe('0x01')
    const readAllowList = new Contract(TX_LIST, ['function readAllowList(address) view returns (uint256)']).interface.encodeFunctionData('readAllowList', [user.address])
    expect(BigInt((await rpc(forkUrl, 'eth_call', [{ to: TX_LIST, data: readAllowList }, 'latest'])).result)).toBe(1n)
    const latest = (await rpc(forkUrl, 'eth_feeConfig')).result
    expect(latest.feeConfig.gasLimit).toBe(15_000_000)
    expect(latest.lastChangedAt).toBe(changedAt)
    // Before the change, from the origin.
    expect((await rpc(forkUrl, 'eth_feeConfig', [`0x${(changedAt - 1).toString(16)}`])).result).toMatchObject({ feeConfig: { gasLimit: 12_000_000 }, lastChangedAt: 0 })
  })

  it("builds subnet-evm blocks on the origin's head, under its precompiles' state", async () => {
    const provider = new JsonRpcProvider(forkUrl, undefined, { staticNetwork: true, cacheTimeout: -1 })
    const ewoq = new Wallet(EWOQ_KEY, provider)
    const other = Wallet.createRandom().address
    const receipt = (await (await new Contract(MINTER, ['function mintNativeCoin(address,uint256)'], ewoq).mintNativeCoin(other, 3n)).wait())!
    expect(receipt.status).toBe(1)
    expect(await provider.getBalance(other)).toBe(3n)
    const block = (await rpc(forkUrl, 'eth_getBlockByNumber', [`0x${receipt.blockNumber.toString(16)}`, false])).result
    expect(block.parentHash).toBe(originHead.hash)
    expect(block.hash).toBe(headerHashOf(block, HEADER_KEYS))
    // The fee manager's gas limit, read from the origin's state.
    expect(BigInt(block.gasLimit)).toBe(15_000_000n)
    expect(block.extDataHash).toBeUndefined()
    // The origin's transaction allow list: the enabled user sends, a stranger is refused.
    expect((await (await user.connect(provider).sendTransaction({ to: EWOQ_ADDRESS, value: 1n })).wait())!.status).toBe(1)
    const stranger = Wallet.createRandom()
    // Funded, so the allow list (the pool's last check) is what refuses it.
    await (await ewoq.sendTransaction({ to: stranger.address, value: parseEther('1') })).wait()
    const raw = await stranger.signTransaction({ to: EWOQ_ADDRESS, value: 0n, gasLimit: 21_000n, maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 1n, nonce: 0, chainId: 99903n, type: 2 })
    expect((await rpc(forkUrl, 'eth_sendRawTransaction', [raw])).error?.message).toBe(`cannot issue transaction from non-allow listed address: ${stranger.address}`)
    provider.destroy()
  })
})
