import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Transaction, Wallet, encodeRlp, getBytes, getCreateAddress, keccak256, toBeHex, zeroPadValue } from 'ethers'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseNodeConfig, type NodeConfigInput } from '../../src/config.js'
import { decodeFeeState, desiredTargetExcess, maxCapacity } from '../../src/engine/rules/feeState.js'
import { createNode } from '../../src/node.js'
import { bytecode, ewoq, iface, sign } from '../helpers/chain.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { GRANITE, EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * The genesis block and the header of built blocks as coreth makes them
 * (docs/notes-fees-header.md (a)). Hashes, roots and blooms are recomputed here from the JSON
 * answers with ethers (RLP, keccak) and @ethereumjs/mpt, not with the node's own code.
 */

const ZERO32 = '0x' + '00'.repeat(32)
const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
const EMPTY_UNCLES = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347'
const WARP = '0x0200000000000000000000000000000000000005'

const tempDir = tempDirs('cchain-genesis-')
afterAll(() => tempDir.removeAll())

/** RLP integer from a JSON quantity: minimal bytes, empty for zero. */
const q = (hex: string) => (BigInt(hex) === 0n ? '0x' : toBeHex(BigInt(hex)))

/** keccak256(rlp(header)) from a block's JSON, fields in coreth's order. */
function hashFromJson(b: any): string {
  return keccak256(
    encodeRlp([
      b.parentHash,
      b.sha3Uncles,
      b.miner,
      b.stateRoot,
      b.transactionsRoot,
      b.receiptsRoot,
      b.logsBloom,
      q(b.difficulty),
      q(b.number),
      q(b.gasLimit),
      q(b.gasUsed),
      q(b.timestamp),
      b.extraData,
      b.mixHash,
      b.nonce,
      b.extDataHash,
      q(b.baseFeePerGas),
      q(b.extDataGasUsed),
      q(b.blockGasCost),
      q(b.blobGasUsed),
      q(b.excessBlobGas),
      b.parentBeaconBlockRoot,
      q(b.timestampMilliseconds),
      q(b.minDelayExcess),
    ]),
  )
}

/** Root of the trie of rlp(index) -> value, built with @ethereumjs/mpt. */
async function listRoot(values: string[]): Promise<string> {
  const trie = new MerklePatriciaTrie()
  for (let i = 0; i < values.length; i++) await trie.put(getBytes(encodeRlp(i === 0 ? '0x' : toBeHex(i))), getBytes(values[i]!))
  return '0x' + Buffer.from(trie.root()).toString('hex')
}

/** A 2048-bit bloom of logs, computed with ethers' keccak (yellow paper 4.3.1). */
function bloomOf(logs: { address: string; topics: string[] }[]): Uint8Array {
  const bloom = new Uint8Array(256)
  for (const log of logs) {
    for (const item of [log.address, ...log.topics]) {
      const h = getBytes(keccak256(item))
      for (let i = 0; i < 6; i += 2) {
        const bit = ((h[i]! << 8) | h[i + 1]!) & 2047
        bloom[255 - (bit >> 3)]! |= 1 << (bit & 7)
      }
    }
  }
  return bloom
}

/** EIP-2718 consensus encoding of a receipt from its eth_getBlockReceipts JSON. */
function consensusReceipt(r: any): string {
  const body = encodeRlp([r.status === '0x1' ? '0x01' : '0x', q(r.cumulativeGasUsed), r.logsBloom, r.logs.map((l: any) => [l.address, l.topics, l.data])])
  return Number(r.type) === 0 ? body : '0x' + Number(r.type).toString(16).padStart(2, '0') + body.slice(2)
}

describe('the local genesis block', () => {
  let node: TestNode
  let genesis: any
  const dataDir = tempDir()
  beforeAll(async () => {
    node = await startTestNode({ chain: GRANITE, dataDir })
    genesis = await node.call('eth_getBlockByNumber', ['0x0', false])
  })
  afterAll(() => node?.close())

  it("has the header of coreth's local C-Chain genesis", () => {
    expect(genesis).toMatchObject({
      number: '0x0',
      timestamp: '0x5fcb13d0',
      gasLimit: '0x5f5e100',
      gasUsed: '0x0',
      baseFeePerGas: '0x34630b8a00',
      extraData: '0x00',
      difficulty: '0x0',
      nonce: '0x0000000000000000',
      mixHash: ZERO32,
      parentHash: ZERO32,
      miner: '0x0000000000000000000000000000000000000000',
      sha3Uncles: EMPTY_UNCLES,
      transactionsRoot: EMPTY_TRIE_ROOT,
      receiptsRoot: EMPTY_TRIE_ROOT,
      logsBloom: '0x' + '00'.repeat(256),
      extDataHash: ZERO32,
      extDataGasUsed: '0x0',
      blockGasCost: '0x0',
      blobGasUsed: '0x0',
      excessBlobGas: '0x0',
      parentBeaconBlockRoot: ZERO32,
      timestampMilliseconds: '0x17631456480',
      minDelayExcess: '0x799d4c',
      transactions: [],
      uncles: [],
    })
  })

  it('its hash is keccak256 of its 24-field RLP header', () => {
    expect(genesis.hash).toBe(hashFromJson(genesis))
  })

  it("holds ewoq's allocation and the Warp precompile account (nonce 1, code 0x01)", async () => {
    expect(await node.call('eth_getBalance', [EWOQ_ADDRESS, '0x0'])).toBe('0x295be96e64066972000000')
    expect(await node.call('eth_getCode', [WARP, '0x0'])).toBe('0x01')
    expect(await node.call('eth_getTransactionCount', [WARP, '0x0'])).toBe('0x1')
    expect(await node.call('eth_getBalance', [WARP, '0x0'])).toBe('0x0')
  })

  it('its hash is stable across restarts and data directories', async () => {
    await node.stop()
    node = await startTestNode({ chain: GRANITE, dataDir })
    expect((await node.call('eth_getBlockByNumber', ['0x0', false])).hash).toBe(genesis.hash)
    const other = await startTestNode({ chain: GRANITE })
    try {
      expect((await other.call('eth_getBlockByNumber', ['0x0', false])).hash).toBe(genesis.hash)
    } finally {
      await other.close()
    }
  })
})

describe('a built block', () => {
  let node: TestNode
  let block: any
  let receipts: any[]
  const raws = new Map<string, string>()
  beforeAll(async () => {
    // No automatic builds: the test builds one block holding every transaction.
    node = await startTestNode({ chain: GRANITE, config: { blockInterval: 3_600_000 } })
    const probe = getCreateAddress({ from: ewoq.address, nonce: 0 })
    const signed = [
      await sign({ nonce: 0, data: bytecode('Probe'), gasLimit: 3_000_000n }),
      await sign({ nonce: 1, to: probe, data: iface('Probe').encodeFunctionData('set', [7n]), gasLimit: 100_000n, type: 1, accessList: [{ address: probe, storageKeys: [ZERO32] }] }),
      await sign({ nonce: 2, to: '0x' + '11'.repeat(20), value: 5n, type: 0 }),
      await sign({ nonce: 3, to: probe, data: iface('Probe').encodeFunctionData('fail', ['no']), gasLimit: 100_000n }),
      await sign({ nonce: 4, to: probe, data: iface('Probe').encodeFunctionData('set', [9n]), gasLimit: 100_000n }),
    ]
    for (const raw of signed) raws.set(await node.call('eth_sendRawTransaction', [raw]), raw)
    const built = await node.node.engine.buildBlock()
    expect(built?.txs.length).toBe(5)
    block = await node.call('eth_getBlockByNumber', ['latest', true])
    receipts = await node.call('eth_getBlockReceipts', [block.hash])
  })
  afterAll(() => node?.close())

  it('carries all five transactions, and some logs and a failed one', () => {
    expect(block.number).toBe('0x1')
    expect(block.transactions).toHaveLength(5)
    expect(receipts.map((r) => r.status)).toEqual(['0x1', '0x1', '0x1', '0x0', '0x1'])
    expect(receipts.flatMap((r) => r.logs)).toHaveLength(2)
  })

  it("has coreth's Granite header values", () => {
    expect(block).toMatchObject({
      difficulty: '0x1',
      miner: '0x0100000000000000000000000000000000000000',
      gasLimit: '0xbebc200',
      blockGasCost: '0x0',
      extDataGasUsed: '0x0',
      extDataHash: EMPTY_TRIE_ROOT,
      nonce: '0x0000000000000000',
      mixHash: ZERO32,
      sha3Uncles: EMPTY_UNCLES,
      blobGasUsed: '0x0',
      excessBlobGas: '0x0',
      parentBeaconBlockRoot: ZERO32,
      baseFeePerGas: '0x1',
      blockExtraData: '0x',
      uncles: [],
    })
    expect(BigInt(block.timestampMilliseconds) / 1000n).toBe(BigInt(block.timestamp))
    expect(BigInt(block.gasUsed)).toBe(receipts.reduce((s, r) => s + BigInt(r.gasUsed), 0n))
  })

  it('its extraData is 30 bytes: the fee state after the block, then empty predicate results', () => {
    const extra = getBytes(block.extraData)
    expect(extra).toHaveLength(30)
    const state = decodeFeeState(extra.subarray(0, 24))
    expect(state.targetExcess).toBe(desiredTargetExcess(20_000_000n))
    expect(maxCapacity(state.targetExcess)).toBe(BigInt(block.gasLimit))
    // The block's gas came out of a full capacity.
    expect(state.capacity).toBe(BigInt(block.gasLimit) - BigInt(block.gasUsed))
    expect([...extra.subarray(24)]).toEqual([0, 0, 0, 0, 0, 0])
  })

  it('transactionsRoot is the trie root of the raw transactions', async () => {
    const ordered = block.transactions.map((tx: any) => raws.get(tx.hash)!)
    expect(ordered.every((r: string | undefined) => r !== undefined)).toBe(true)
    // The JSON objects describe exactly these signed bytes.
    for (const tx of block.transactions) {
      const fields: Record<string, unknown> = {
        type: Number(tx.type),
        chainId: BigInt(tx.chainId),
        nonce: Number(tx.nonce),
        gasLimit: BigInt(tx.gas),
        to: tx.to,
        value: BigInt(tx.value),
        data: tx.input,
        signature: { r: tx.r, s: tx.s, v: BigInt(tx.v) },
      }
      if (tx.type === '0x2') Object.assign(fields, { maxFeePerGas: BigInt(tx.maxFeePerGas), maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas), accessList: tx.accessList })
      else Object.assign(fields, { gasPrice: BigInt(tx.gasPrice) }, tx.type === '0x1' ? { accessList: tx.accessList } : {})
      expect(Transaction.from(fields as never).serialized, tx.hash).toBe(raws.get(tx.hash))
    }
    expect(block.transactionsRoot).toBe(await listRoot(ordered))
  })

  it("receiptsRoot is the trie root of the receipts' consensus encodings", async () => {
    expect(block.receiptsRoot).toBe(await listRoot(receipts.map(consensusReceipt)))
  })

  it("each receipt's bloom is its logs' bloom, and logsBloom is their OR", () => {
    const or = new Uint8Array(256)
    for (const r of receipts) {
      const bloom = bloomOf(r.logs)
      expect(r.logsBloom).toBe('0x' + Buffer.from(bloom).toString('hex'))
      for (let i = 0; i < 256; i++) or[i]! |= bloom[i]!
    }
    expect(or.some((x) => x !== 0)).toBe(true)
    expect(block.logsBloom).toBe('0x' + Buffer.from(or).toString('hex'))
  })

  it('its hash is keccak256 of its 24-field RLP header, and its parent is the genesis', async () => {
    expect(block.hash).toBe(hashFromJson(block))
    expect(block.parentHash).toBe((await node.call('eth_getBlockByNumber', ['0x0', false])).hash)
  })

  it('an empty block has the empty roots and bloom', async () => {
    await node.node.engine.buildBlock()
    const empty = await node.call('eth_getBlockByNumber', ['latest', false])
    expect(empty.number).toBe('0x2')
    expect(empty).toMatchObject({ transactionsRoot: EMPTY_TRIE_ROOT, receiptsRoot: EMPTY_TRIE_ROOT, logsBloom: '0x' + '00'.repeat(256), gasUsed: '0x0', difficulty: '0x1' })
    expect(getBytes(empty.extraData)).toHaveLength(30)
    expect(empty.hash).toBe(hashFromJson(empty))
  })
})

describe('a custom genesis file', () => {
  const CONTRACT = '0x' + 'c0'.repeat(20)
  const holder = Wallet.createRandom().address
  const file = join(tempDir(), 'genesis.json')
  writeFileSync(
    file,
    JSON.stringify({
      config: { chainId: 777, homesteadBlock: 0, eip150Block: 0, eip155Block: 0, eip158Block: 0, byzantiumBlock: 0 },
      nonce: '0x0',
      timestamp: '0x5fcb13d0',
      extraData: '0x00',
      gasLimit: '0x1312d00',
      difficulty: '0x0',
      alloc: {
        [holder.slice(2)]: { balance: '0xde0b6b3a7640000', nonce: '0x5' },
        [CONTRACT]: { balance: 7, code: '0x6001600055', storage: { '0x01': '0x2a', '0x0000000000000000000000000000000000000000000000000000000000000002': '0xbeef' } },
      },
    }),
  )

  let node: TestNode
  const dataDir = tempDir()
  beforeAll(async () => {
    node = await startTestNode({ chain: GRANITE, dataDir, config: { genesisFile: file } })
  })
  afterAll(() => node?.stop())

  it('is served: chain ID, header, and the allocation (balance, nonce, code, storage)', async () => {
    expect(await node.call('eth_chainId')).toBe('0x309')
    const g = await node.call('eth_getBlockByNumber', ['0x0', false])
    expect(g.gasLimit).toBe('0x1312d00')
    expect(g.hash).toBe(hashFromJson(g))
    expect(await node.call('eth_getBalance', [holder, 'latest'])).toBe('0xde0b6b3a7640000')
    expect(await node.call('eth_getTransactionCount', [holder, 'latest'])).toBe('0x5')
    expect(await node.call('eth_getBalance', [CONTRACT, 'latest'])).toBe('0x7')
    expect(await node.call('eth_getCode', [CONTRACT, 'latest'])).toBe('0x6001600055')
    expect(await node.call('eth_getTransactionCount', [CONTRACT, 'latest'])).toBe('0x0')
    expect(await node.call('eth_getStorageAt', [CONTRACT, '0x1', 'latest'])).toBe(zeroPadValue('0x2a', 32))
    expect(await node.call('eth_getStorageAt', [CONTRACT, '0x2', 'latest'])).toBe(zeroPadValue('0xbeef', 32))
    expect(await node.call('eth_getStorageAt', [CONTRACT, '0x3', 'latest'])).toBe(ZERO32)
    // ewoq is not funded by this genesis.
    expect(await node.call('eth_getBalance', [EWOQ_ADDRESS, 'latest'])).toBe('0x0')
    expect((await node.call('eth_getChainConfig')).chainId).toBe(777)
  })

  it('a data directory keeps its genesis: starting it with another one fails with a clear message', async () => {
    const custom = (await node.call('eth_getBlockByNumber', ['0x0', false])).hash
    await node.stop()
    const err = await startTestNode({ chain: GRANITE, dataDir }).then(
      async (n) => {
        await n.stop()
        return undefined
      },
      (e: unknown) => e as Error,
    )
    expect(err).toBeInstanceOf(Error)
    expect(err!.message).toContain(custom)
    expect(err!.message).toMatch(/genesis/)
    expect(err!.message).toContain('--data-dir')
    // The failed start released the directory: the right genesis opens it again.
    node = await startTestNode({ chain: GRANITE, dataDir, config: { genesisFile: file } })
    expect(await node.call('eth_chainId')).toBe('0x309')
  })
})

describe('public network chain IDs', () => {
  /** Creates (without listening) and closes a node, returning what it logged. */
  async function startupLog(chainId: number): Promise<any[]> {
    const file = join(tempDir(), `genesis-${chainId}.json`)
    writeFileSync(file, JSON.stringify({ config: { chainId }, gasLimit: '0x5f5e100', timestamp: '0x5fcb13d0', alloc: {} }))
    const lines: any[] = []
    const log = pino(
      { level: 'info' },
      {
        write: (s: string) => {
          lines.push(JSON.parse(s))
        },
      },
    )
    const config = parseNodeConfig({ httpPort: 0, dataDir: tempDir(), genesisFile: file } as NodeConfigInput)
    const node = await createNode(config, { log })
    try {
      expect(node.engine.chainId).toBe(BigInt(chainId))
    } finally {
      await node.close()
    }
    return lines
  }

  it.each([43114, 43113])('chain ID %i starts and warns that transactions are replayable', async (chainId) => {
    const lines = await startupLog(chainId)
    const warning = lines.find((l) => l.level === 40 && /replayable/.test(l.msg))
    expect(warning, JSON.stringify(lines)).toBeDefined()
    expect(warning.msg).toContain(String(chainId))
  })

  it('the local chain ID does not warn', async () => {
    const lines = await startupLog(43112)
    expect(lines.filter((l) => /replayable/.test(l.msg))).toEqual([])
  })
})
