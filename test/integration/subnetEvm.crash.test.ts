import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { Interface, Wallet, id as keccakText, parseEther } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChildNode, assertBuilt, batchAt, exited, startChild } from '../helpers/childNode.js'
import { EWOQ_ADDRESS } from '../helpers/constants.js'
import { GETH_HEADER_KEYS, headerHashOf } from '../helpers/headerHash.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { chainAt } from '../helpers/warp.js'

/*
 * A subnet-evm chain (docs/L1.md) under kill -9: the real node (dist/src/main.js, a child process)
 * runs examples/chains/mintchain; ewoq mints native coin, changes the fee config (fee manager) and
 * sets a reward address (reward manager), and the node is killed right after the last answer. On
 * the same data directory every block and receipt it answered is there, the balances the mint and
 * the fees made, the fee config (eth_feeConfig, getFeeConfig) and the reward address, which is the
 * coinbase of the next block and takes its fees; that block survives a second kill, and the chain
 * goes on.
 */

const MINTER = '0x0200000000000000000000000000000000000001'
const FEE_MANAGER = '0x0200000000000000000000000000000000000003'
const REWARD_MANAGER = '0x0200000000000000000000000000000000000004'
const BLACKHOLE = '0x0100000000000000000000000000000000000000'
const FEE_TUPLE =
  'uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep'
const precompiles = new Interface([
  'function mintNativeCoin(address, uint256)',
  `function setFeeConfig(${FEE_TUPLE})`,
  `function getFeeConfig() view returns (${FEE_TUPLE})`,
  'function getFeeConfigLastChangedAt() view returns (uint256)',
  'function setRewardAddress(address)',
  'function currentRewardAddress() view returns (address)',
])
/** The fee config ewoq sets: every field other than the genesis' (examples/chains/mintchain), and valid for subnet-evm. */
const FEE_CONFIG = {
  gasLimit: 15_000_000,
  targetBlockRate: 3,
  minBaseFee: 30_000_000_000,
  targetGas: 45_000_000,
  baseFeeChangeDenominator: 48,
  minBlockGasCost: 0,
  maxBlockGasCost: 2_000_000,
  blockGasCostStep: 100_000,
}
/** A subnet-evm header's RLP fields (subnet-evm customtypes/header_ext.go), as test/integration/subnetEvm.test.ts checks them. */
const HEADER_KEYS = [...GETH_HEADER_KEYS, 'baseFeePerGas', 'blockGasCost', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'timestampMilliseconds', 'minDelayExcess']
const RECIPIENT = new Wallet(keccakText('subnet-evm-crash-recipient')).address
const REWARD = new Wallet(keccakText('subnet-evm-crash-reward')).address
const MINTED = parseEther('5')
const tempDir = tempDirs('cchain-subnet-evm-crash-')

type Mint = ReturnType<typeof chainAt>
const hexOf = (n: bigint | number) => `0x${n.toString(16)}`
const fee = (r: any) => BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice)

describe('a subnet-evm chain after kill -9', () => {
  let node: ChildNode | undefined
  let dataDir: string
  let chainsDir: string
  beforeAll(() => {
    assertBuilt()
    dataDir = tempDir()
    chainsDir = tempDir()
    cpSync(join(process.cwd(), 'examples/chains/mintchain'), join(chainsDir, 'mintchain'), { recursive: true })
  })
  afterAll(async () => {
    node?.proc.kill('SIGKILL')
    if (node !== undefined) await exited(node.proc)
    tempDir.removeAll()
  })

  /** The node on the data directory; mintchain's JSON-RPC. */
  const start = async (): Promise<{ url: string; mint: Mint }> => {
    node = await startChild(dataDir, ['--chain-config-dir', chainsDir])
    const url = node.url.replace('/ext/bc/C/rpc', '/ext/bc/mintchain/rpc')
    return { url, mint: chainAt(url) }
  }
  const kill = async () => {
    node!.proc.kill('SIGKILL')
    await exited(node!.proc)
    expect(node!.proc.signalCode).toBe('SIGKILL')
  }
  const read = async (mint: Mint, to: string, fn: string) => precompiles.decodeFunctionResult(fn, await mint.call('eth_call', [{ to, data: precompiles.encodeFunctionData(fn) }, 'latest']))

  /** Every receipt answered is there unchanged, its block at its height with a header whose RLP gives its hash, and the blocks link up to the head. */
  const expectAcknowledged = async (url: string, acknowledged: any[]) => {
    const receipts = await batchAt(
      url,
      acknowledged.map((r) => ['eth_getTransactionReceipt', [r.transactionHash]]),
    )
    expect(receipts).toEqual(acknowledged)
    const head = Number((await batchAt(url, [['eth_blockNumber', []]]))[0])
    expect(head).toBeGreaterThanOrEqual(Math.max(...acknowledged.map((r) => Number(r.blockNumber))))
    const blocks = await batchAt(
      url,
      Array.from({ length: head + 1 }, (_, n) => ['eth_getBlockByNumber', [hexOf(n), false]]),
    )
    for (const r of acknowledged) {
      const block = blocks[Number(r.blockNumber)]
      expect(block.hash).toBe(r.blockHash)
      expect(block.transactions).toContain(r.transactionHash)
    }
    for (const [n, block] of blocks.entries()) {
      expect(block.hash, `block ${n}`).toBe(headerHashOf(block, HEADER_KEYS))
      if (n > 0) expect(block.parentHash, `block ${n}`).toBe(blocks[n - 1].hash)
    }
    return { head, blocks }
  }

  it('keeps what it answered: the mint, the fee config and the reward address, the reward coinbase in the next block; the chain goes on', async () => {
    let { url, mint } = await start()
    const before = await batchAt(url, [
      ['eth_getBalance', [EWOQ_ADDRESS, 'latest']],
      ['eth_getBalance', [BLACKHOLE, 'latest']],
    ])
    const ewoqBefore = BigInt(before[0])
    const blackholeBefore = BigInt(before[1])
    expect(await mint.call('eth_getBalance', [RECIPIENT, 'latest'])).toBe('0x0')

    // ewoq, admin of the three precompiles; the node is killed right after the third answer.
    const minted = await mint.send({ to: MINTER, data: precompiles.encodeFunctionData('mintNativeCoin', [RECIPIENT, MINTED]), gasLimit: 100_000n })
    const feesSet = await mint.send({ to: FEE_MANAGER, data: precompiles.encodeFunctionData('setFeeConfig', Object.values(FEE_CONFIG)), gasLimit: 500_000n })
    const rewardSet = await mint.send({ to: REWARD_MANAGER, data: precompiles.encodeFunctionData('setRewardAddress', [REWARD]), gasLimit: 100_000n })
    await kill()
    const first = [minted, feesSet, rewardSet]
    for (const r of first) expect(r.status).toBe('0x1')

    ;({ url, mint } = await start())
    const { head } = await expectAcknowledged(url, first)
    // The balances: the mint, and every fee from ewoq to the blackhole (the reward address takes effect from the next block).
    const paid = first.reduce((sum, r) => sum + fee(r), 0n)
    expect(BigInt(await mint.call('eth_getBalance', [RECIPIENT, 'latest']))).toBe(MINTED)
    expect(BigInt(await mint.call('eth_getBalance', [EWOQ_ADDRESS, 'latest']))).toBe(ewoqBefore - paid)
    expect(BigInt(await mint.call('eth_getBalance', [BLACKHOLE, 'latest']))).toBe(blackholeBefore + paid)
    expect(await mint.call('eth_getBalance', [REWARD, 'latest'])).toBe('0x0')
    // The fee config and the reward address, in the RPC and in the precompiles' state.
    expect(await mint.call('eth_feeConfig')).toEqual({ feeConfig: FEE_CONFIG, lastChangedAt: Number(feesSet.blockNumber) })
    expect((await read(mint, FEE_MANAGER, 'getFeeConfig')).map(Number)).toEqual(Object.values(FEE_CONFIG))
    expect((await read(mint, FEE_MANAGER, 'getFeeConfigLastChangedAt'))[0]).toBe(BigInt(feesSet.blockNumber))
    expect((await read(mint, REWARD_MANAGER, 'currentRewardAddress'))[0]).toBe(REWARD)

    // The chain goes on: the next block has the reward address as its coinbase, which takes the whole fee, and the new fee config's gas limit and minimum base fee.
    const next = await mint.send({ to: RECIPIENT, data: '0x', gasLimit: 21_000n })
    await kill()
    expect(next.status).toBe('0x1')
    expect(Number(next.blockNumber)).toBe(head + 1)

    ;({ url, mint } = await start())
    const { blocks } = await expectAcknowledged(url, [...first, next])
    const rewarded = blocks[head + 1]
    expect(rewarded.miner).toBe(REWARD.toLowerCase())
    expect(BigInt(rewarded.gasLimit)).toBe(BigInt(FEE_CONFIG.gasLimit))
    expect(BigInt(rewarded.baseFeePerGas)).toBeGreaterThanOrEqual(BigInt(FEE_CONFIG.minBaseFee))
    expect(BigInt(await mint.call('eth_getBalance', [REWARD, 'latest']))).toBe(fee(next))
    expect(BigInt(await mint.call('eth_getBalance', [BLACKHOLE, 'latest']))).toBe(blackholeBefore + paid)
    expect(BigInt(await mint.call('eth_getBalance', [EWOQ_ADDRESS, 'latest']))).toBe(ewoqBefore - paid - fee(next))
    expect(await mint.call('eth_feeConfig')).toEqual({ feeConfig: FEE_CONFIG, lastChangedAt: Number(feesSet.blockNumber) })

    // And after the second restart: one more block on top of the recovered head, still the reward address's.
    const last = await mint.send({ to: RECIPIENT, data: '0x', gasLimit: 21_000n })
    expect(last.status).toBe('0x1')
    expect(Number(last.blockNumber)).toBe(head + 2)
    const top = await mint.call('eth_getBlockByNumber', [last.blockNumber, false])
    expect(top.parentHash).toBe(rewarded.hash)
    expect(top.miner).toBe(REWARD.toLowerCase())
    expect(BigInt(await mint.call('eth_getBalance', [REWARD, 'latest']))).toBe(fee(next) + fee(last))
    expect(BigInt(await mint.call('eth_getBalance', [RECIPIENT, 'latest']))).toBe(MINTED)
  })
})
