import { afterAll, describe, expect, it } from 'vitest'
import { poll, send, sign } from '../helpers/chain.js'
import { verifyAccount, verifyStorage } from '../helpers/mptVerify.js'
import { SLOT_WRITER_INIT, SLOT_WRITER_RUNTIME, slotWrites } from '../helpers/slotWriter.js'
import { GRANITE, EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

const BLOCKS = 300
const KEYS = 64
const WRITES_PER_BLOCK = 16
const HISTORY = 32

/** coreth's answer for a state root that is not on disk (hashdb Reader inside trie.MissingNodeError). */
const missing = (root: string) => ({ code: -32000, message: `missing trie node ${root.slice(2)} (path ) state ${root} is not available, not found` })

interface Stream {
  writer: string
  /** Slot values after each block, by block number. */
  values: Map<number, bigint[]>
  /** Number of 's' entries on disk after every 50 blocks of the stream. */
  counts: number[]
  head: number
}

/**
 * Deploys the slot writer, then mines BLOCKS blocks that each overwrite WRITES_PER_BLOCK of its
 * KEYS slots with new values: the live state stays the same size while every block leaves
 * garbage behind (the replaced leaves and the branch nodes above them).
 */
async function churn(node: TestNode): Promise<Stream> {
  const deployed = await send(node, { data: SLOT_WRITER_INIT, gasLimit: 200_000n })
  const writer = deployed.receipt.contractAddress
  const current: bigint[] = new Array(KEYS).fill(0n)
  const values = new Map<number, bigint[]>()
  const counts: number[] = []
  let nonce = Number(await node.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest']))
  let head = 0
  let seed = 1n
  for (let i = 0; i < BLOCKS; i++) {
    const pairs: [bigint, bigint][] = []
    for (let w = 0; w < WRITES_PER_BLOCK; w++) {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n)
      const key = (BigInt(i) * 7n + BigInt(w) * 13n) % BigInt(KEYS)
      pairs.push([key, seed | 1n])
      current[Number(key)] = seed | 1n
    }
    const raw = await sign({ to: writer, data: slotWrites(pairs), gasLimit: 1_000_000n, nonce: nonce++ })
    const hash = await node.call('eth_sendRawTransaction', [raw])
    const receipt = await poll(() => node.call('eth_getTransactionReceipt', [hash]), 'receipt')
    head = Number(receipt.blockNumber)
    values.set(head, [...current])
    if ((i + 1) % 50 === 0) counts.push(await node.node.engine['chain'].trieDb.countStored())
  }
  return { writer, values, counts, head }
}

const hexN = (n: number) => '0x' + n.toString(16)

describe('pruning-enabled: state of the last state-history blocks only, disk stays flat', () => {
  let node: TestNode | undefined
  afterAll(() => node?.close())

  it(`keeps ${HISTORY} blocks of state through ${BLOCKS} blocks of storage churn; older state is coreth's missing trie node`, async () => {
    node = await startTestNode({ chain: { ...GRANITE, 'pruning-enabled': true } })
    const s = await churn(node)
    const key = (k: number) => hexN(k)
    // Garbage is collected as the stream runs: the number of entries does not grow with the blocks.
    // (An archival node's count grows by the same amount every 50 blocks: 6x from block 50 to 300.)
    const [first, ...rest] = s.counts
    for (const c of rest) expect(c).toBeLessThan(2 * first!)
    expect(Math.max(...s.counts.slice(3))).toBeLessThan(1.25 * Math.max(...s.counts.slice(0, 3)))

    const stateRoot = async (n: number) => (await node!.call('eth_getBlockByNumber', [hexN(n), false])).stateRoot
    // head .. head-31: every state answers, with the values written by then.
    for (let back = 0; back < HISTORY; back++) {
      const n = s.head - back
      const k = (n * 5) % KEYS
      expect(BigInt(await node.call('eth_getStorageAt', [s.writer, key(k), hexN(n)]))).toBe(s.values.get(n)![k])
    }
    // head-32 and older: coreth's answer for a root that is not on disk, for every state method.
    for (const n of [s.head - HISTORY, s.head - 100, 1]) {
      const err = missing(await stateRoot(n))
      expect((await node.rpc('eth_getStorageAt', [s.writer, '0x0', hexN(n)])).error).toEqual(err)
      expect((await node.rpc('eth_getBalance', [EWOQ_ADDRESS, hexN(n)])).error).toEqual(err)
      expect((await node.rpc('eth_call', [{ to: s.writer }, hexN(n)])).error).toEqual(err)
    }
    expect((await node.rpc('eth_getBalance', [EWOQ_ADDRESS, 'earliest'])).error).toEqual(missing(await stateRoot(0)))

    // The proof window of a pruning node is state-history: head-33 is refused, head-32 passes the
    // window but its state is gone, head-31 proves.
    const oldest = s.head - HISTORY
    expect((await node.rpc('eth_getProof', [s.writer, [], hexN(oldest - 1)])).error).toEqual({
      code: -32000,
      message: `historical proof query not allowed: block number ${oldest - 1} is before the oldest allowed block number ${oldest} (window of ${HISTORY} blocks)`,
    })
    expect((await node.rpc('eth_getProof', [s.writer, [], hexN(oldest)])).error).toEqual(missing(await stateRoot(oldest)))
    const p = await node.call('eth_getProof', [s.writer, ['0x3'], hexN(oldest + 1)])
    const account = verifyAccount(await stateRoot(oldest + 1), s.writer, p.accountProof)
    expect(account?.storageRoot).toBe(p.storageHash)
    expect(verifyStorage(p.storageHash, '0x3', p.storageProof[0].proof)).toBe(s.values.get(oldest + 1)![3])

    // An explicit collection keeps exactly what the stream left live.
    const before = await node.node.engine['chain'].trieDb.countStored()
    const result = await node.node.engine.prune()
    expect(result).toMatchObject({ roots: 2 * HISTORY })
    expect(result!.kept).toBe(await node.node.engine['chain'].trieDb.countStored())
    expect(result!.kept).toBeLessThanOrEqual(before)

    // A restart needs only the head and recent roots.
    const dataDir = node.dataDir
    const root1 = await stateRoot(1)
    await node.stop()
    const again = await startTestNode({ dataDir, chain: { ...GRANITE, 'pruning-enabled': true } })
    try {
      expect(BigInt(await again.call('eth_getStorageAt', [s.writer, key(3), 'latest']))).toBe(s.values.get(s.head)![3])
      expect(await again.call('eth_getCode', [s.writer, 'latest'])).toBe(SLOT_WRITER_RUNTIME) // code is kept by its hash
      expect(BigInt(await again.call('eth_getStorageAt', [s.writer, key(3), hexN(s.head - 31)]))).toBe(s.values.get(s.head - 31)![3])
      expect((await again.rpc('eth_getBalance', [EWOQ_ADDRESS, '0x1'])).error).toEqual(missing(root1))
      const next = await send(again, { to: s.writer, data: slotWrites([[3n, 99n]]), gasLimit: 100_000n })
      expect(await again.call('eth_getStorageAt', [s.writer, key(3), next.receipt.blockNumber])).toBe('0x' + '63'.padStart(64, '0'))
    } finally {
      await again.stop()
    }
  }, 180_000)

  it('archival (the default) keeps every state: the entries grow with the blocks', async () => {
    node = await startTestNode()
    const s = await churn(node)
    const [first, , , , , last] = s.counts
    expect(last!).toBeGreaterThan(first! * 3)
    expect(node.node.engine.prune()).toBeUndefined()
    for (const n of [1, 2, s.head - 200, s.head - 33]) {
      const k = (n * 5) % KEYS
      expect(BigInt(await node.call('eth_getStorageAt', [s.writer, hexN(k), hexN(n)]))).toBe(s.values.get(n)?.[k] ?? 0n)
    }
    expect(await node.call('eth_getBalance', [EWOQ_ADDRESS, '0x0'])).toBe('0x295be96e64066972000000')
  }, 180_000)
})
