import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ewoq, send, sign } from '../helpers/chain.js'
import { GETH_HEADER_KEYS, headerHashOf } from '../helpers/headerHash.js'
import { GRANITE, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * Helicon (avalanchego v1.15's C-Chain; docs/EVM.md "Helicon") with the chain config key `hardfork`:
 * its genesis header, the minimum charge of half the gas limit, blocks that settle what finished
 * executing 5 s of gas time before them, and `safe`/`finalized` at the last settled block. Expected
 * values are worked out here from the rules, independently of the node's code (ethers' RLP and
 * keccak, ethereumjs's trie), as each comment says.
 */

const BLACKHOLE = '0x0100000000000000000000000000000000000000'
const DEAD = '0x000000000000000000000000000000000000dEaD'
const HEADER_KEYS = [
  ...GETH_HEADER_KEYS,
  'extDataHash',
  'baseFeePerGas',
  'extDataGasUsed',
  'blockGasCost',
  'blobGasUsed',
  'excessBlobGas',
  'parentBeaconBlockRoot',
  'timestampMilliseconds',
  'minDelayExcess',
  'targetExponent',
  'minPriceExponent',
  'settledHeight',
  'settledGasUnix',
  'settledGasNumerator',
  'settledExcess',
]
/** keccak(rlp(header)) from a block's JSON, in coreth's field order (customtypes/header_ext.go): 30 fields under Helicon. */
function hashOfJson(b: Record<string, string>): string {
  return headerHashOf(b, HEADER_KEYS)
}

/** The receipts trie root of receipts as JSON (EIP-2718 consensus encodings under rlp(index)). */
async function receiptsRoot(receipts: Array<Record<string, any>>): Promise<string> {
  const trie = new MerklePatriciaTrie()
  for (const [i, r] of receipts.entries()) {
    const body = RLP.encode([BigInt(r.status), BigInt(r.cumulativeGasUsed), hexToBytes(r.logsBloom), r.logs.map((l: any) => [hexToBytes(l.address), l.topics.map(hexToBytes), hexToBytes(l.data)])])
    const type = Number(r.type)
    await trie.put(RLP.encode(i), type === 0 ? body : new Uint8Array([type, ...body]))
  }
  return bytesToHex(trie.root())
}

describe('Helicon (the default; hardfork: helicon)', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  it('is active from genesis on the local network, as info.upgrades and eth_getChainConfig say; a chain kept at Granite has it unscheduled', async () => {
    // avalanchego v1.15.1's local networks: Helicon at InitiallyActiveTime, 2020-12-05T05:00:00Z = 1607144400.
    expect((await node.api('/ext/info', 'info.upgrades')).result.heliconTime).toBe('2020-12-05T05:00:00Z')
    expect((await node.call('eth_getChainConfig')).heliconTimestamp).toBe(1607144400)
    const granite = await startTestNode({ chain: { hardfork: 'granite' } })
    try {
      // avalanchego's UnscheduledActivationTime, 9999-12-01T00:00:00Z.
      expect((await granite.call('eth_getChainConfig')).heliconTimestamp).toBe(253399622400)
      expect((await granite.call('eth_getBlockByNumber', ['0x0', false])).settledHeight).toBeUndefined()
    } finally {
      await granite.close()
    }
  })

  it("on Fuji's network ID turns Helicon on at Fuji's date: a Granite genesis (time 0), then Helicon's blocks", async () => {
    const fuji = await startTestNode({ config: { networkId: 5 } })
    try {
      expect((await fuji.api('/ext/info', 'info.upgrades')).result.heliconTime).toBe('2026-07-28T15:00:00Z')
      expect((await fuji.call('eth_getChainConfig')).heliconTimestamp).toBe(Date.UTC(2026, 6, 28, 15) / 1000)
      const g = await fuji.call('eth_getBlockByNumber', ['0x0', false])
      expect(g.settledHeight).toBeUndefined()
      await send(fuji, { to: DEAD, value: 1n, gasLimit: 100_000n })
      const b1 = await fuji.call('eth_getBlockByNumber', ['0x1', false])
      // The last block before Helicon is settled at once (it executed synchronously): block 1 settles nothing newer.
      expect(b1.settledHeight).toBe('0x0')
      expect(b1.stateRoot).toBe(g.stateRoot)
      expect(b1.hash).toBe(hashOfJson(b1))
      expect(BigInt((await fuji.call('eth_getTransactionReceipt', [b1.transactions[0]])).gasUsed)).toBe(50_000n)
    } finally {
      await fuji.close()
    }
  })

  it("has Helicon's genesis: the six new fields at 0, hashed in a 30-field header", async () => {
    const g = await node.call('eth_getBlockByNumber', ['0x0', false])
    for (const k of ['targetExponent', 'minPriceExponent', 'settledHeight', 'settledGasUnix', 'settledGasNumerator', 'settledExcess']) expect(g[k]).toBe('0x0')
    expect(g.hash).toBe(hashOfJson(g))
    // The local genesis's state and Granite fields as before: 225 gwei, 2,000 ms of minimum delay.
    expect(g.baseFeePerGas).toBe('0x34630b8a00')
    expect(g.minDelayExcess).toBe('0x799d4c')
    expect(g.totalDifficulty).toBe('0x0')
  })

  it('charges at least half the gas limit, to the sender and to the blackhole, and settles blocks 5 s of gas time on', async () => {
    const genesis = await node.call('eth_getBlockByNumber', ['0x0', false])
    const balanceBefore = BigInt(await node.call('eth_getBalance', [ewoq.address, 'latest']))
    const { receipt: r1 } = await send(node, { to: DEAD, value: 1n, gasLimit: 100_000n })
    // A transfer uses 21,000; ceil(100,000 / 2) = 50,000 is charged.
    expect(BigInt(r1.gasUsed)).toBe(50_000n)
    expect(BigInt(r1.cumulativeGasUsed)).toBe(50_000n)
    const price = BigInt(r1.effectiveGasPrice)
    expect(BigInt(await node.call('eth_getBalance', [ewoq.address, 'latest']))).toBe(balanceBefore - 1n - 50_000n * price)
    expect(BigInt(await node.call('eth_getBalance', [BLACKHOLE, 'latest']))).toBe(50_000n * price)

    const b1 = await node.call('eth_getBlockByNumber', ['0x1', false])
    expect(b1.hash).toBe(hashOfJson(b1))
    // Block 1 settles only the genesis: its root, no receipts, the genesis's clock.
    expect(b1.stateRoot).toBe(genesis.stateRoot)
    expect(b1.receiptsRoot).toBe('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421')
    expect(b1.settledHeight).toBe('0x0')
    expect(BigInt(b1.settledGasUnix)).toBe(BigInt(genesis.timestamp))
    // The genesis clock: its 225 gwei inverted at K = 87·1M: 87e6·ln(2.25e11) ≈ 2.2741e9.
    expect(Number(BigInt(b1.settledExcess)) / 87e6).toBeCloseTo(Math.log(2.25e11), 5)
    // Worst case: the gas limits (100,000), 20 s·T... T = 1M: a 20M limit, and the clock long past the genesis's fee: 1 wei.
    expect(b1.gasUsed).toBe('0x186a0')
    expect(b1.gasLimit).toBe('0x1312d00')
    expect(b1.baseFeePerGas).toBe('0x1')
    for (const tag of ['safe', 'finalized']) expect((await node.call('eth_getBlockByNumber', [tag, false])).number).toBe('0x0')

    // Ten seconds later block 2 settles block 1 (executed by its own time, long before 10 s − 5 s).
    await node.call('evm_increaseTime', [10])
    const { receipt: r2 } = await send(node, { to: DEAD, value: 1n, gasLimit: 21_000n })
    expect(BigInt(r2.gasUsed)).toBe(21_000n)
    const b2 = await node.call('eth_getBlockByNumber', ['0x2', false])
    expect(b2.hash).toBe(hashOfJson(b2))
    expect(b2.settledHeight).toBe('0x1')
    // Block 1's own post-state root: the hash of the first node of an account proof at block 1.
    const proof = await node.call('eth_getProof', [DEAD, [], '0x1'])
    expect(b2.stateRoot).toBe(keccak256(proof.accountProof[0]))
    expect(b2.receiptsRoot).toBe(await receiptsRoot(await node.call('eth_getBlockReceipts', ['0x1'])))
    // Block 1's clock: its time's fraction at 2M gas/s, then its 50,000 charged gas; the excess grew by half of it.
    const ms = BigInt(b1.timestampMilliseconds)
    const fraction = ((ms % 1000n) * 1_000_000n * 2_000_000n + 999_999_999n) / 1_000_000_000n + 50_000n
    expect(BigInt(b2.settledGasUnix)).toBe(ms / 1000n)
    expect(BigInt(b2.settledGasNumerator)).toBe(fraction)
    expect(BigInt(b2.settledExcess)).toBe(25_000n)
    expect(b2.gasUsed).toBe('0x5208')
    expect((await node.call('eth_getBlockByNumber', ['latest', false])).number).toBe('0x2')
    for (const tag of ['safe', 'finalized']) expect((await node.call('eth_getBlockByNumber', [tag, false])).number).toBe('0x1')
    // Each block's state is its own: the transfers at blocks 1 and 2.
    expect(await node.call('eth_getBalance', [DEAD, '0x1'])).toBe('0x1')
    expect(await node.call('eth_getBalance', [DEAD, '0x2'])).toBe('0x2')
    // eth_getLogs and receipts are the block's own, whatever its header settles.
    expect((await node.call('eth_getBlockReceipts', ['0x2']))[0].transactionHash).toBe(r2.transactionHash)
  })

  it("forks across the switch: a chain made before Helicon's fork settles its first block at once, Helicon's blocks after it", async () => {
    const origin = await startTestNode({ chain: GRANITE })
    try {
      await send(origin, { to: DEAD, value: 1n })
      const n = await origin.call('eth_getBlockByNumber', ['latest', false])
      const fork = await startTestNode({ chain: { 'fork-url': origin.url } })
      try {
        const { receipt } = await send(fork, { to: DEAD, value: 1n, gasLimit: 100_000n })
        expect(BigInt(receipt.gasUsed)).toBe(50_000n)
        const b = await fork.call('eth_getBlockByNumber', [receipt.blockNumber, false])
        expect(BigInt(b.number)).toBe(BigInt(n.number) + 1n)
        // Block N executed synchronously: its header's root is its own post-state, settled by N+1.
        expect([b.settledHeight, b.stateRoot, b.parentHash]).toEqual([n.number, n.stateRoot, n.hash])
        expect(b.hash).toBe(hashOfJson(b))
        expect((await fork.call('eth_getBlockByNumber', ['safe', false])).hash).toBe(n.hash)
      } finally {
        await fork.close()
      }
    } finally {
      await origin.close()
    }
  })

  it("forks a Helicon block: the fork's first block settles it at once, at the root the origin settles it at", async () => {
    const origin = await startTestNode()
    try {
      await send(origin, { to: DEAD, value: 1n })
      const n = await origin.call('eth_getBlockByNumber', ['latest', false])
      // On the origin, a block 10 s later settles N: its header carries N's post-state root.
      await origin.call('evm_increaseTime', [10])
      await send(origin, { to: DEAD, value: 1n })
      const settling = await origin.call('eth_getBlockByNumber', ['latest', false])
      expect(settling.settledHeight).toBe(n.number)
      const fork = await startTestNode({ chain: { 'fork-url': origin.url, 'fork-block-number': Number(n.number) } })
      try {
        const { receipt } = await send(fork, { to: DEAD, value: 1n })
        const b = await fork.call('eth_getBlockByNumber', [receipt.blockNumber, false])
        expect([b.settledHeight, b.stateRoot, b.parentHash]).toEqual([n.number, settling.stateRoot, n.hash])
        expect(b.hash).toBe(hashOfJson(b))
      } finally {
        await fork.close()
      }
    } finally {
      await origin.close()
    }
  })

  it('keeps its chain across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cchain-helicon-'))
    try {
      const first = await startTestNode({ dataDir, chain: { hardfork: 'helicon' } })
      await send(first, { to: DEAD, value: 1n, gasLimit: 60_000n })
      await first.call('evm_increaseTime', [10])
      await send(first, { to: DEAD, value: 1n, gasLimit: 60_000n })
      const head = await first.call('eth_getBlockByNumber', ['latest', false])
      await first.stop()
      const again = await startTestNode({ dataDir, chain: { hardfork: 'helicon' } })
      try {
        expect(await again.call('eth_getBlockByNumber', ['latest', false])).toEqual(head)
        expect((await again.call('eth_getBlockByNumber', ['safe', false])).number).toBe('0x1')
        // Block 2 is 10 s ahead of the clock (the first run's evm_increaseTime): 20 s more puts block 3 past its settlement.
        await again.call('evm_increaseTime', [20])
        const { receipt } = await send(again, { to: DEAD, value: 1n, gasLimit: 60_000n })
        expect(BigInt(receipt.gasUsed)).toBe(30_000n)
        expect((await again.call('eth_getBlockByNumber', ['0x3', false])).settledHeight).toBe('0x2')
      } finally {
        await again.stop()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('says so when its data dir holds a chain made before Helicon', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cchain-granite-'))
    try {
      const granite = await startTestNode({ dataDir, chain: { hardfork: 'granite' } })
      await granite.stop()
      await expect(startTestNode({ dataDir, chain: { hardfork: 'helicon' } })).rejects.toThrow(/made before Helicon.*"hardfork": "granite"/)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('refuses a transaction with less gas than its bytes need: ceil(size × block gas limit / 1.5 MiB)', async () => {
    // 100,000 zero bytes of calldata: 21,000 + 4 each = 421,000 gas of intrinsic gas, well under
    // what 100 KB need of a 20,000,000-gas block (1.5 MiB = 1,572,864 bytes per block).
    // The next block's gas limit: Tau·λ = 10 s of the 1,000,000 gas/s target's doubled rate (saevm SafeMaxBlockSize).
    const gasLimit = 20_000_000n
    const raw = await sign({ to: DEAD, data: `0x${'00'.repeat(100_000)}`, gasLimit: 500_000n, nonce: Number(await node.call('eth_getTransactionCount', [ewoq.address, 'pending'])) })
    const size = BigInt((raw.length - 2) / 2)
    const min = (size * gasLimit + 1_572_863n) / 1_572_864n
    expect(min).toBeGreaterThan(500_000n)
    const answer = await node.rpc('eth_sendRawTransaction', [raw])
    expect(answer.error).toEqual({ code: -32000, message: `insufficient gas limit for tx size: tx size ${size} bytes must specify gas limit at least ${min} when the block gas limit is ${gasLimit}` })

    // eth_estimateGas answers enough for the bytes: the transaction signed with it is taken and mined.
    const estimate = BigInt(await node.call('eth_estimateGas', [{ from: ewoq.address, to: DEAD, data: `0x${'00'.repeat(100_000)}` }]))
    expect(estimate).toBeGreaterThan(421_000n)
    const signed = await sign({ to: DEAD, data: `0x${'00'.repeat(100_000)}`, gasLimit: estimate, nonce: Number(await node.call('eth_getTransactionCount', [ewoq.address, 'pending'])) })
    expect(estimate).toBeGreaterThanOrEqual((BigInt((signed.length - 2) / 2) * gasLimit + 1_572_863n) / 1_572_864n)
    const { receipt } = await send(node, { to: DEAD, data: `0x${'00'.repeat(100_000)}`, gasLimit: estimate })
    expect(receipt.status).toBe('0x1')
  })

  it("keeps coreth's no-refund rule above the minimum charge: a clearing call pays 26,006 (geth's refund would make it 21,206)", async () => {
    // Creation: slot 0 = 1, then the runtime PUSH1 0 PUSH1 0 SSTORE STOP (21,000 + 3 + 3 + 5,000 to clear it).
    const { receipt: created } = await send(node, { data: '0x6001600055656000600055006000526006601af3', gasLimit: 100_000n })
    // A limit under twice the use: ceil(40,000 / 2) = 20,000 is below what the call spends.
    const { receipt } = await send(node, { to: created.contractAddress, gasLimit: 40_000n })
    expect([receipt.status, BigInt(receipt.gasUsed)]).toEqual(['0x1', 26_006n])
    expect(await node.call('eth_getStorageAt', [created.contractAddress, '0x0', 'latest'])).toBe(`0x${'0'.repeat(64)}`)
  })
})
