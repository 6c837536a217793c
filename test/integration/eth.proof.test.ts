import { Wallet, keccak256 } from 'ethers'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { iface, send, deploy } from '../helpers/chain.js'
import { fromHex, verifyAccount, verifyStorage } from '../helpers/mptVerify.js'
import { SLOT_WRITER_INIT, slotWrites } from '../helpers/slotWriter.js'
import { GRANITE, EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

const ZERO_HASH = '0x' + '00'.repeat(32)
const EMPTY_CODE_HASH = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'
const EMPTY_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
const UNKNOWN_HASH = '0x' + 'ab'.repeat(32)

/** Checks an eth_getProof answer against a block's state root with the independent verifier. */
function expectVerified(p: any, stateRoot: string): void {
  const account = verifyAccount(stateRoot, p.address, p.accountProof)
  if (account === null) {
    expect([p.balance, p.nonce, p.codeHash, p.storageHash]).toEqual(['0x0', '0x0', ZERO_HASH, ZERO_HASH])
  } else {
    expect(account).toEqual({ nonce: BigInt(p.nonce), balance: BigInt(p.balance), storageRoot: p.storageHash, codeHash: p.codeHash })
  }
  for (const s of p.storageProof) {
    if (s.proof.length === 0) {
      // geth proves nothing below an absent account or an empty storage trie.
      expect(account === null || account.storageRoot === EMPTY_ROOT).toBe(true)
      expect(s.value).toBe('0x0')
    } else {
      expect(verifyStorage(p.storageHash, s.key, s.proof)).toBe(BigInt(s.value))
    }
  }
  // geth's Prove: every element but the root is referenced by hash (32 bytes or more encoded).
  for (const proof of [p.accountProof, ...p.storageProof.map((s: any) => s.proof)]) {
    proof.slice(1).forEach((n: string) => expect(fromHex(n).length).toBeGreaterThanOrEqual(32))
  }
}

describe('eth_getProof (EIP-1186, archival node)', () => {
  let node: TestNode
  let probe: string
  let writer: string
  let beforeDeploy: any // block before Probe existed
  let deployed: any // Probe deployed, storage still empty
  let stored: any // after Probe.set(42)
  let written: any // after the writer stored 40 slots
  const absent = Wallet.createRandom().address.toLowerCase()
  const slots = Array.from({ length: 40 }, (_, i) => [BigInt(i * 7 + 1), BigInt(i + 1)] as [bigint, bigint])
  const block = (n: string) => node.call('eth_getBlockByNumber', [n, false])
  /*
   * Helicon: a header's stateRoot is the last block it settles' post-state, and eth_getProof at a block
   * proves that block's own state. Blocks here are 10 s of gas time apart, so each settles its parent
   * exactly and carries its root: a block with the root the next one carries (checked to settle it).
   * The last, empty, block settles the one before, whose state it keeps: 'latest' carries its own root.
   */
  const gap = () => node.call('evm_increaseTime', [10])
  const withOwnRoot = async (n: string) => {
    const [b, next] = await Promise.all([block(n), block(`0x${(BigInt(n) + 1n).toString(16)}`)])
    expect(next.settledHeight).toBe(b.number)
    return { ...b, stateRoot: next.stateRoot }
  }

  beforeAll(async () => {
    node = await startTestNode()
    beforeDeploy = await block('latest')
    await gap()
    const d = await deploy(node, 'Probe')
    probe = d.address.toLowerCase()
    await gap()
    const set = await send(node, { to: probe, data: iface('Probe').encodeFunctionData('set', [42n]), gasLimit: 100_000n })
    await gap()
    const w = await send(node, { data: SLOT_WRITER_INIT, gasLimit: 200_000n })
    writer = w.receipt.contractAddress.toLowerCase()
    await gap()
    const fill = await send(node, { to: writer, data: slotWrites(slots), gasLimit: 2_000_000n })
    await gap()
    await node.call('evm_mine')
    deployed = await withOwnRoot(d.receipt.blockNumber)
    stored = await withOwnRoot(set.receipt.blockNumber)
    written = await withOwnRoot(fill.receipt.blockNumber)
  })
  afterAll(() => node.close())

  it('a contract with storage: fields, key echo (32 bytes as given, shorter as QUANTITY), values as QUANTITY', async () => {
    const keys = ['0x0', ZERO_HASH, '0x01', '0x' + '00'.repeat(31) + '01', '1', '0X0', '']
    const p = await node.call('eth_getProof', [probe, keys, stored.number])
    expect(Object.keys(p)).toEqual(['address', 'accountProof', 'balance', 'codeHash', 'nonce', 'storageHash', 'storageProof'])
    expect(p.address).toBe(probe)
    expect(p.balance).toBe('0x0')
    expect(p.nonce).toBe('0x1') // EIP-161: a contract starts at nonce 1
    expect(p.codeHash).toBe(keccak256(await node.call('eth_getCode', [probe, stored.number])))
    expect(p.storageHash).not.toBe(EMPTY_ROOT)
    expect(p.storageProof.map((s: any) => Object.keys(s))).toEqual(keys.map(() => ['key', 'value', 'proof']))
    expect(p.storageProof.map((s: any) => s.key)).toEqual(['0x0', ZERO_HASH, '0x1', '0x' + '00'.repeat(31) + '01', '0x1', '0x0', '0x0'])
    expect(p.storageProof.map((s: any) => s.value)).toEqual(['0x2a', '0x2a', '0x0', '0x0', '0x0', '0x2a', '0x2a'])
    expectVerified(p, stored.stateRoot)
    // The slot that does not exist comes with a proof of its absence.
    expect(p.storageProof[2].proof.length).toBeGreaterThan(0)
  })

  it('a storage trie of 40 slots: every slot and absent ones verify; a tampered proof does not', async () => {
    const keys = [...slots.map(([k]) => '0x' + k.toString(16)), '0x2', '0xffff', ZERO_HASH]
    const p = await node.call('eth_getProof', [writer, keys, 'latest'])
    expect(p.storageProof.map((s: any) => s.value)).toEqual([...slots.map(([, v]) => '0x' + v.toString(16)), '0x0', '0x0', '0x0'])
    expectVerified(p, written.stateRoot)
    expect(p.storageProof.every((s: any) => s.proof.length > 0)).toBe(true)
    const tampered = [...p.accountProof]
    tampered[tampered.length - 1] = tampered[tampered.length - 1].replace(/.$/, (c: string) => (c === '0' ? '1' : '0'))
    expect(() => verifyAccount(written.stateRoot, writer, tampered)).toThrow(/missing/)
    expect(() => verifyAccount(stored.stateRoot, writer, p.accountProof)).toThrow(/missing/)
  })

  it('an externally owned account: empty code hash and storage root, storage keys with empty proofs', async () => {
    const p = await node.call('eth_getProof', [EWOQ_ADDRESS, ['0x0'], 'latest'])
    expect(p.address).toBe(EWOQ_ADDRESS.toLowerCase())
    expect(p.codeHash).toBe(EMPTY_CODE_HASH)
    expect(p.storageHash).toBe(EMPTY_ROOT)
    expect(p.nonce).toBe(await node.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest']))
    expect(p.balance).toBe(await node.call('eth_getBalance', [EWOQ_ADDRESS, 'latest']))
    expect(p.storageProof).toEqual([{ key: '0x0', value: '0x0', proof: [] }])
    expectVerified(p, (await block('latest')).stateRoot)
  })

  it('an account that does not exist: zero hashes (geth), a proof of absence against the state root', async () => {
    const p = await node.call('eth_getProof', [absent, [ZERO_HASH, '0x5'], 'latest'])
    expect(p).toMatchObject({ address: absent, balance: '0x0', nonce: '0x0', codeHash: ZERO_HASH, storageHash: ZERO_HASH })
    expect(p.storageProof).toEqual([
      { key: ZERO_HASH, value: '0x0', proof: [] },
      { key: '0x5', value: '0x0', proof: [] },
    ])
    expect(p.accountProof.length).toBeGreaterThan(0)
    expect(verifyAccount((await block('latest')).stateRoot, absent, p.accountProof)).toBeNull()
    expectVerified(p, (await block('latest')).stateRoot)
    const noKeys = await node.call('eth_getProof', [absent, [], 'latest'])
    expect(noKeys.storageProof).toEqual([])
    expect((await node.call('eth_getProof', [absent, null, 'latest'])).storageProof).toEqual([])
  })

  it("old blocks: each proof verifies against that block's state root (by number, hash, EIP-1898, earliest)", async () => {
    const before = await node.call('eth_getProof', [probe, ['0x0'], beforeDeploy.number])
    expect(before).toMatchObject({ codeHash: ZERO_HASH, storageHash: ZERO_HASH, storageProof: [{ key: '0x0', value: '0x0', proof: [] }] })
    expectVerified(before, beforeDeploy.stateRoot)
    const empty = await node.call('eth_getProof', [probe, ['0x0'], deployed.hash])
    expect(empty.storageHash).toBe(EMPTY_ROOT)
    expect(empty.storageProof).toEqual([{ key: '0x0', value: '0x0', proof: [] }])
    expectVerified(empty, deployed.stateRoot)
    const set = await node.call('eth_getProof', [probe, ['0x0'], { blockHash: stored.hash, requireCanonical: true }])
    expect(set.storageProof[0].value).toBe('0x2a')
    expectVerified(set, stored.stateRoot)
    const genesis = await block('0x0')
    for (const ref of ['earliest', '0x0', { blockNumber: '0x0' }]) {
      const g = await node.call('eth_getProof', [EWOQ_ADDRESS, [], ref])
      expect(g.balance).toBe('0x295be96e64066972000000')
      expectVerified(g, genesis.stateRoot)
    }
    const latest = await block('latest')
    for (const tag of ['latest', 'pending', 'safe', 'finalized']) {
      expectVerified(await node.call('eth_getProof', [writer, ['0x1'], tag]), latest.stateRoot)
    }
  })

  it("geth's errors: bad keys (-32000), bad argument types (-32602), unknown blocks", async () => {
    expect((await node.rpc('eth_getProof', [probe, ['0xzz'], 'latest'])).error).toEqual({ code: -32000, message: 'hex string invalid' })
    expect((await node.rpc('eth_getProof', [probe, ['0x' + '11'.repeat(33)], 'latest'])).error).toEqual({ code: -32000, message: 'hex string too long, want at most 32 bytes' })
    expect((await node.rpc('eth_getProof', [probe, '0x0', 'latest'])).error).toEqual({ code: -32602, message: 'invalid argument 1: json: cannot unmarshal string into Go value of type []string' })
    expect((await node.rpc('eth_getProof', [probe, [1], 'latest'])).error).toEqual({ code: -32602, message: 'invalid argument 1: json: cannot unmarshal number into Go value of type string' })
    expect((await node.rpc('eth_getProof', [probe])).error).toEqual({ code: -32602, message: 'missing value for required argument 1' })
    // The block defaults to latest (execution-apis get-account-proof-default-block).
    expect(await node.call('eth_getProof', [probe, ['0x0']])).toEqual(await node.call('eth_getProof', [probe, ['0x0'], 'latest']))
    expect((await node.rpc('eth_getProof', [probe, [], '0x3e8'])).error).toEqual({ code: -32000, message: 'header not found' })
    // The window check comes first and looks the hash up (coreth api_extra.go).
    expect((await node.rpc('eth_getProof', [probe, [], UNKNOWN_HASH])).error).toEqual({ code: -32000, message: `historical proof query not allowed: block from hash ${UNKNOWN_HASH} doesn't exist` })
  })

  it('answers the same over WebSocket', async () => {
    const ws = new WebSocket(node.wsUrl)
    const answer = new Promise<any>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))))
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    const params = [writer, ['0x1', '0x2'], written.number]
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getProof', params }))
    expect((await answer).result).toEqual(await node.call('eth_getProof', params))
    ws.terminate()
  })
})

describe('eth_getProof windows (coreth: internal/ethapi/api_extra.go)', () => {
  let node: TestNode | undefined
  afterAll(() => node?.close())

  async function grow(n: TestNode, blocks: number): Promise<void> {
    for (let i = 0; i < blocks; i++) await send(n, { to: EWOQ_ADDRESS, value: 1n })
  }

  it('archival: blocks more than historical-proof-query-window behind the last accepted are refused', async () => {
    node = await startTestNode({ chain: { ...GRANITE, 'historical-proof-query-window': 3 } })
    await grow(node, 6)
    const b1 = await node.call('eth_getBlockByNumber', ['0x1', false])
    const refused = (n: number) => ({ code: -32000, message: `historical proof query not allowed: block number ${n} is before the oldest allowed block number 3 (window of 3 blocks)` })
    expect((await node.rpc('eth_getProof', [EWOQ_ADDRESS, [], '0x1'])).error).toEqual(refused(1))
    expect((await node.rpc('eth_getProof', [EWOQ_ADDRESS, [], '0x2'])).error).toEqual(refused(2))
    expect((await node.rpc('eth_getProof', [EWOQ_ADDRESS, [], 'earliest'])).error).toEqual(refused(0))
    expect((await node.rpc('eth_getProof', [EWOQ_ADDRESS, [], b1.hash])).error).toEqual(refused(1))
    expect((await node.rpc('eth_getProof', [EWOQ_ADDRESS, [], { blockHash: b1.hash }])).error).toEqual(refused(1))
    // The window comes before the keys are decoded.
    expect((await node.rpc('eth_getProof', [EWOQ_ADDRESS, ['0xzz'], '0x1'])).error).toEqual(refused(1))
    const b3 = await node.call('eth_getBlockByNumber', ['0x3', false])
    expectVerified(await node.call('eth_getProof', [EWOQ_ADDRESS, [], '0x3']), b3.stateRoot)
    expectVerified(await node.call('eth_getProof', [EWOQ_ADDRESS, [], 'latest']), (await node.call('eth_getBlockByNumber', ['latest', false])).stateRoot)
    // Other state methods have no window on an archival node.
    expect(await node.call('eth_getBalance', [EWOQ_ADDRESS, '0x1'])).toMatch(/^0x/)
    await node.close()

    node = await startTestNode({ chain: { ...GRANITE, 'historical-proof-query-window': 0 } })
    await grow(node, 2)
    const genesis = await node.call('eth_getBlockByNumber', ['0x0', false])
    expectVerified(await node.call('eth_getProof', [EWOQ_ADDRESS, [], '0x0']), genesis.stateRoot)
    // No window at all: an unknown hash is the state lookup's "header for hash not found".
    expect((await node.rpc('eth_getProof', [EWOQ_ADDRESS, [], UNKNOWN_HASH])).error).toEqual({ code: -32000, message: 'header for hash not found' })
    await node.close()
    node = undefined
  })
})
