/**
 * Impersonation, dropping pooled transactions and the introspection methods (issue 15) as test
 * suites drive them: viem's test client in anvil and hardhat modes, `cast rpc` with the raw names,
 * raw JSON-RPC. An impersonated sender's transaction is mined with that sender and shows it in every
 * read (tx, receipt, block, trace), also after a restart; stopping refuses it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClient, createWalletClient, http, publicActions, type Hex } from 'viem'
import { sign, waitReceipt } from '../helpers/chain.js'
import { EWOQ_ADDRESS as EWOQ } from '../helpers/constants.js'
import { cast as castRaw, castRpc, localChain } from '../helpers/devClients.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

const TO = '0x00000000000000000000000000000000000e0e0e' as const
const ETHER = 10n ** 18n

let tn: TestNode
beforeAll(async () => {
  tn = await startTestNode()
})
afterAll(() => tn?.close())

const chain = localChain
const cast = (method: string, ...params: string[]) => castRpc(tn.url, method, ...params)
const whale = (tag: string) => `0x${tag.padStart(8, '0')}${'00'.repeat(16)}` as Hex

describe.each(['anvil', 'hardhat'] as const)("impersonation with viem's test client in %s mode", (mode) => {
  it('a transfer from an impersonated address is mined with that sender, shown in every read; stopping refuses it again', async () => {
    const test = createTestClient({ mode, chain: chain(tn.url), transport: http(tn.url) }).extend(publicActions)
    const from = whale(mode === 'anvil' ? 'a11' : 'b22')
    const wallet = createWalletClient({ account: from, chain: chain(tn.url), transport: http(tn.url) })
    await test.setBalance({ address: from, value: 10n * ETHER })
    const toBefore = await test.getBalance({ address: TO })

    await test.impersonateAccount({ address: from })
    const hash = await wallet.sendTransaction({ to: TO, value: ETHER })
    const receipt = await test.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from).toBe(from)
    expect(await test.getBalance({ address: TO })).toBe(toBefore + ETHER)
    expect(await test.getTransactionCount({ address: from })).toBe(1)
    expect((await test.getTransaction({ hash })).from).toBe(from)
    const block = await test.getBlock({ blockHash: receipt.blockHash, includeTransactions: true })
    expect(block.transactions.map((t) => [t.hash, t.from])).toContainEqual([hash, from])
    const trace = await tn.call('debug_traceTransaction', [hash, { tracer: 'callTracer' }])
    expect(trace.from).toBe(from)

    await test.stopImpersonatingAccount({ address: from })
    // eth_sendTransaction needs a keystore account otherwise, which the default node does not serve.
    await expect(wallet.sendTransaction({ to: TO, value: 1n })).rejects.toThrow(/eth_sendTransaction does not exist/)
    expect(await test.getTransactionCount({ address: from })).toBe(1)
  })
})

describe('impersonation, raw names', () => {
  it('cast rpc: hardhat names answer true (stop: whether it was impersonated), anvil names null; auto-impersonation covers every sender', async () => {
    const from = whale('c33')
    await tn.call('anvil_setBalance', [from, '0xde0b6b3a7640000'])
    expect(await cast('hardhat_impersonateAccount', from)).toBe('true')
    expect(await cast('hardhat_stopImpersonatingAccount', from)).toBe('true')
    expect(await cast('hardhat_stopImpersonatingAccount', from)).toBe('false')
    expect(await cast('anvil_impersonateAccount', from)).toBe('null')
    expect(await cast('anvil_stopImpersonatingAccount', from)).toBe('null')
    expect((await tn.rpc('eth_sendTransaction', [{ from, to: TO, value: '0x1' }])).error?.code).toBe(-32601)

    expect(await cast('anvil_autoImpersonateAccount', 'true')).toBe('null')
    const hash = await tn.call('eth_sendTransaction', [{ from, to: TO, value: '0x1' }])
    expect((await waitReceipt(tn, hash)).from).toBe(from)
    // Foundry's `cast send --unlocked` sends through eth_sendTransaction, as against anvil.
    const sent = JSON.parse(await castRaw('send', '--rpc-url', tn.url, '--unlocked', '--from', from, TO, '--value', '1', '--json'))
    expect([sent.status, sent.from]).toEqual(['0x1', from])
    expect(await cast('anvil_autoImpersonateAccount', 'false')).toBe('null')
    expect((await tn.rpc('eth_sendTransaction', [{ from, to: TO, value: '0x1' }])).error?.code).toBe(-32601)
  })

  it('an impersonated contract sends (no EIP-3607 refusal, as anvil) and keeps its code: a call to itself runs it', async () => {
    const node = await startTestNode()
    try {
      // CALLER PUSH1 0 SSTORE STOP: stores who called it.
      const contract = whale('c0c0')
      await node.call('anvil_setCode', [contract, '0x3360005500'])
      await node.call('anvil_setBalance', [contract, '0xde0b6b3a7640000'])
      await node.call('anvil_impersonateAccount', [contract])
      // No gas given: the estimate runs the code too (a call from a contract keeps its code, as geth's calls do).
      const hash = await node.call('eth_sendTransaction', [{ from: contract, to: contract }])
      const receipt = await waitReceipt(node, hash)
      expect([receipt.status, receipt.from]).toEqual(['0x1', contract])
      expect(await node.call('eth_getStorageAt', [contract, '0x0', 'latest'])).toBe(`0x${'00'.repeat(12)}${contract.slice(2)}`)
      expect(await node.call('eth_getCode', [contract, 'latest'])).toBe('0x3360005500')
      expect(await node.call('eth_getTransactionCount', [contract, 'latest'])).toBe('0x1')
      const trace = await node.call('debug_traceTransaction', [hash, { tracer: 'callTracer' }])
      expect([trace.from, trace.to, trace.error]).toEqual([contract, contract, undefined])
    } finally {
      await node.close()
    }
  })

  it('two senders sending the same legacy transaction get two hashes; the sender holds across a restart', async () => {
    const node = await startTestNode()
    try {
      const [a, b] = [whale('d44'), whale('e55')]
      const hashes: string[] = []
      for (const from of [a, b]) {
        await node.call('anvil_setBalance', [from, '0xde0b6b3a7640000'])
        await node.call('anvil_impersonateAccount', [from])
        // Same nonce (0), same fields: only the sender differs.
        hashes.push(await node.call('eth_sendTransaction', [{ from, to: TO, value: '0x5', gas: '0x5208', gasPrice: '0x174876e800' }]))
      }
      expect(hashes[0]).not.toBe(hashes[1])
      for (const [i, hash] of hashes.entries()) {
        const receipt = await waitReceipt(node, hash!)
        expect(receipt.status).toBe('0x1')
        const tx = await node.call('eth_getTransactionByHash', [hash])
        expect([tx.type, tx.from]).toEqual(['0x0', [a, b][i]])
      }
      await node.stop()
      const again = await startTestNode({ dataDir: node.dataDir })
      try {
        for (const [i, hash] of hashes.entries()) {
          expect((await again.call('eth_getTransactionByHash', [hash])).from).toBe([a, b][i])
          expect((await again.call('eth_getTransactionReceipt', [hash])).from).toBe([a, b][i])
        }
      } finally {
        await again.close()
      }
    } finally {
      await node.close()
    }
  })

  it("with keystore accounts served, an impersonated sender still needs no key and any other sender is the keystore's", async () => {
    const node = await startTestNode({ chain: { 'eth-apis': ['eth', 'internal-eth', 'internal-blockchain', 'internal-transaction', 'internal-account', 'debug-tracer', 'dev'] } })
    try {
      const from = whale('f66')
      await node.call('anvil_setBalance', [from, '0xde0b6b3a7640000'])
      const refused = await node.rpc('eth_sendTransaction', [{ from, to: TO, value: '0x1' }])
      expect(refused.error?.message).toBe('unknown account')
      await node.call('hardhat_impersonateAccount', [from])
      expect((await waitReceipt(node, await node.call('eth_sendTransaction', [{ from, to: TO, value: '0x1' }]))).from).toBe(from)
    } finally {
      await node.close()
    }
  })

  it('anvil_reset ends impersonation; a revert does not (anvil and hardhat snapshots do not hold it)', async () => {
    const node = await startTestNode()
    try {
      const from = whale('a77')
      const send = () => node.rpc('eth_sendTransaction', [{ from, to: TO, value: '0x0' }])
      const id = await node.call('evm_snapshot', [])
      await node.call('anvil_impersonateAccount', [from])
      await node.call('anvil_setBalance', [from, '0xde0b6b3a7640000'])
      expect(await node.call('evm_revert', [id])).toBe(true)
      // Still impersonated: the send is refused for funds (the balance went with the revert), not for the key.
      expect((await send()).error?.message).toMatch(/^insufficient funds/)
      await node.call('anvil_reset', [])
      expect((await send()).error?.code).toBe(-32601)
    } finally {
      await node.close()
    }
  })
})

describe('dropping pooled transactions', () => {
  const queued = async (offset: number) => {
    const nonce = Number(await tn.call('eth_getTransactionCount', [EWOQ, 'latest'])) + offset
    return tn.call('eth_sendRawTransaction', [await sign({ to: TO, value: BigInt(offset), nonce })])
  }
  const status = async () => tn.call('txpool_status', [])

  it('anvil_dropTransaction answers the hash, then null; hardhat_dropTransaction true, then false; a mined one is an error', async () => {
    const a = await queued(5)
    const b = await queued(6)
    expect(await status()).toEqual({ pending: '0x0', queued: '0x2' })
    expect(await cast('anvil_dropTransaction', a)).toBe(`"${a}"`)
    expect(await tn.call('anvil_dropTransaction', [a])).toBeNull()
    expect(await tn.call('eth_getTransactionByHash', [a])).toBeNull()
    expect(await status()).toEqual({ pending: '0x0', queued: '0x1' })
    expect(await tn.call('hardhat_dropTransaction', [b])).toBe(true)
    expect(await tn.call('hardhat_dropTransaction', [b])).toBe(false)
    expect(await status()).toEqual({ pending: '0x0', queued: '0x0' })

    const mined = await tn.call('eth_sendRawTransaction', [await sign({ to: TO, value: 1n, nonce: Number(await tn.call('eth_getTransactionCount', [EWOQ, 'pending'])) })])
    await waitReceipt(tn, mined)
    expect(await tn.call('anvil_dropTransaction', [mined])).toBeNull()
    const answer = await tn.rpc('hardhat_dropTransaction', [mined])
    expect(answer.error).toEqual({ code: -32000, message: `Transaction ${mined} cannot be dropped because it's already mined` })
  })

  it('with automine off, dropping a pending transaction sends the later ones back to queued: the next block holds only the one before it', async () => {
    const latest = Number(await tn.call('eth_getTransactionCount', [EWOQ, 'latest']))
    await tn.call('evm_setAutomine', [false])
    try {
      const hashes: string[] = []
      for (const nonce of [latest, latest + 1, latest + 2]) hashes.push(await tn.call('eth_sendRawTransaction', [await sign({ to: TO, value: 1n, nonce })]))
      expect(await status()).toEqual({ pending: '0x3', queued: '0x0' })
      expect(await tn.call('anvil_dropTransaction', [hashes[1]])).toBe(hashes[1])
      expect(await status()).toEqual({ pending: '0x1', queued: '0x1' })
      expect(await tn.call('eth_getTransactionCount', [EWOQ, 'pending'])).toBe(`0x${(latest + 1).toString(16)}`)
      await tn.call('evm_mine', [])
      expect((await tn.call('eth_getTransactionReceipt', [hashes[0]])).status).toBe('0x1')
      expect(await tn.call('eth_getTransactionReceipt', [hashes[2]])).toBeNull()
      expect(await status()).toEqual({ pending: '0x0', queued: '0x1' })
    } finally {
      await tn.call('anvil_dropAllTransactions', [])
      await tn.call('evm_setAutomine', [true])
    }
  })

  it("anvil_dropAllTransactions empties the pool (viem's dropTransaction drops one)", async () => {
    const test = createTestClient({ mode: 'anvil', chain: chain(tn.url), transport: http(tn.url) })
    const a = await queued(7)
    await queued(8)
    await test.dropTransaction({ hash: a })
    expect(await status()).toEqual({ pending: '0x0', queued: '0x1' })
    expect(await cast('anvil_dropAllTransactions')).toBe('null')
    expect(await status()).toEqual({ pending: '0x0', queued: '0x0' })
  })
})

describe('introspection', () => {
  it("anvil_nodeInfo and anvil_metadata tell this node's head, chain and version; the instance id changes at a reset", async () => {
    const node = await startTestNode()
    try {
      await node.call('anvil_setBalance', [TO, '0x1'])
      const head = await node.call('eth_getBlockByNumber', ['latest', false])
      const info = await node.call('anvil_nodeInfo', [])
      expect(info).toEqual({
        currentBlockNumber: head.number,
        currentBlockTimestamp: Number(head.timestamp),
        currentBlockHash: head.hash,
        hardFork: 'Cancun',
        transactionOrder: 'fees',
        environment: { baseFee: await node.call('eth_baseFee', []), chainId: 43112, gasLimit: expect.stringMatching(/^0x[0-9a-f]+$/), gasPrice: await node.call('eth_gasPrice', []) },
        forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
      })
      const version = await node.call('web3_clientVersion', [])
      expect(version).toMatch(/^HardhatNetwork\/cchain-node\//)
      const id = await node.call('evm_snapshot', [])
      const meta = await node.call('anvil_metadata', [])
      expect(meta).toEqual({
        clientVersion: version,
        clientSemver: expect.stringMatching(/^\d+\.\d+\.\d+$/),
        clientCommitSha: null,
        chainId: 43112,
        instanceId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        latestBlockNumber: Number(head.number),
        latestBlockHash: head.hash,
        forkedNetwork: null,
        snapshots: { [id]: [Number(head.number), head.hash] },
      })
      const hardhat = await node.call('hardhat_metadata', [])
      expect(hardhat).toEqual({ clientVersion: version, chainId: 43112, instanceId: meta.instanceId, latestBlockNumber: Number(head.number), latestBlockHash: head.hash })

      await node.call('evm_revert', [id])
      expect((await node.call('anvil_metadata', [])).instanceId).toBe(meta.instanceId)
      await node.call('anvil_reset', [])
      const after = await node.call('anvil_metadata', [])
      expect(after.instanceId).not.toBe(meta.instanceId)
      expect(after.snapshots).toEqual({})
    } finally {
      await node.close()
    }
  })
})
