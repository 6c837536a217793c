import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Wallet, id as keccakText, type TransactionRequest } from 'ethers'
import { describe, expect, it } from 'vitest'
import { CHAIN_ID, bytecode, ewoq, iface } from '../helpers/chain.js'
import { GRANITE, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * The engine's answers, block by block, against golden values: a fixed sequence of transactions,
 * development edits, a snapshot and its revert, empty blocks, a restart and a block of 120 transfers,
 * each block mined at a set timestamp, so that every hash is the same on every run. For each block
 * its hash, state, transactions and receipts roots, and a digest of its full JSON and its receipts;
 * at the end, a digest of the answers a client reads (balances, nonces, code, storage, proofs, logs,
 * traces). The golden file was recorded from the engine as it was before the in-memory state engine
 * (issue 34), after coreth's no-refund rule, and recorded again when the coinbase came to be credited
 * the base fee too (coreth's rule, issue 35): any engine change that changes an answer fails here,
 * naming the first block that differs.
 *
 * Recording (only when an intended rule change moves the answers, with the reason in the commit):
 *   CCHAIN_WRITE_GOLDEN=1 npx vitest run --project c-chain test/integration/engine.golden.test.ts
 */

const GOLDEN = fileURLToPath(new URL('../fixtures/golden/engine-replay.json', import.meta.url))
const WRITE = process.env.CCHAIN_WRITE_GOLDEN === '1'

/** The local genesis's timestamp (config/local-genesis.json), and the first block's. */
const GENESIS_TIME = 0x5fcb13d0
const GWEI = 10n ** 9n

const senders = Array.from({ length: 6 }, (_, i) => new Wallet(keccakText(`cchain-node golden sender ${i}`)))
const fresh = (i: number) => `0x${keccakText(`cchain-node golden recipient ${i}`).slice(26)}`
// Runtime PUSH1 0 PUSH1 0 SSTORE STOP behind a creation that sets slot 0 (test/integration/evm.rules.test.ts).
const CLEARER = '0x6001600055656000600055006000526006601af3'
const token = iface('TestToken')
const probe = iface('Probe')

interface BlockRecord {
  number: string
  hash: string
  stateRoot: string
  transactionsRoot: string
  receiptsRoot: string
  gasUsed: string
  txs: number
  /** sha256 of the canonical JSON of eth_getBlockByNumber(n, true) and eth_getBlockReceipts(n). */
  answers: string
}

interface Recording {
  blocks: BlockRecord[]
  /** step name -> sha256 of the answers read after it */
  reads: Record<string, string>
}

/** The script: every step in order; `mine` records the block it makes. */
class Replay {
  readonly rec: Recording = { blocks: [], reads: {} }
  private time = GENESIS_TIME + 10
  private nonces = new Map<string, number>()
  constructor(public node: TestNode) {}

  private async nonce(w: Wallet): Promise<number> {
    let n = this.nonces.get(w.address)
    if (n === undefined) n = Number(await this.node.call('eth_getTransactionCount', [w.address, 'pending']))
    this.nonces.set(w.address, n + 1)
    return n
  }

  /** Signs (deterministically: RFC 6979) and sends into the pool; mining is manual. */
  async send(w: Wallet, tx: TransactionRequest): Promise<string> {
    const type = tx.type ?? 2
    const base: TransactionRequest = { chainId: CHAIN_ID, gasLimit: 21_000n, value: 0n, nonce: await this.nonce(w), ...tx, type }
    if (type === 2) {
      base.maxFeePerGas ??= 100n * GWEI
      base.maxPriorityFeePerGas ??= GWEI
    } else base.gasPrice ??= 100n * GWEI
    return this.node.call('eth_sendRawTransaction', [await w.signTransaction(base)])
  }

  /** Mines one block at the next timestamp and records it. */
  async mine(txs: number): Promise<BlockRecord> {
    this.time += 2
    await this.node.call('evm_mine', [this.time])
    const block = await this.node.call('eth_getBlockByNumber', ['latest', true])
    const receipts = await this.node.call('eth_getBlockReceipts', [block.number])
    expect(block.transactions.length, `block ${block.number}`).toBe(txs)
    const record: BlockRecord = {
      number: block.number,
      hash: block.hash,
      stateRoot: block.stateRoot,
      transactionsRoot: block.transactionsRoot,
      receiptsRoot: block.receiptsRoot,
      gasUsed: block.gasUsed,
      txs: block.transactions.length,
      answers: digest([block, receipts]),
    }
    this.rec.blocks.push(record)
    return record
  }

  /** Reads what a client reads of the head and records its digest under `step`. */
  async read(step: string, accounts: string[], contracts: { address: string; slots: string[] }[]): Promise<void> {
    const answers: unknown[] = []
    for (const a of accounts) {
      answers.push(await this.node.call('eth_getBalance', [a, 'latest']), await this.node.call('eth_getTransactionCount', [a, 'latest']), await this.node.call('eth_getCode', [a, 'latest']))
    }
    for (const c of contracts) {
      for (const s of c.slots) answers.push(await this.node.call('eth_getStorageAt', [c.address, s, 'latest']))
      answers.push(await this.node.call('eth_getProof', [c.address, c.slots, 'latest']))
    }
    answers.push(await this.node.call('eth_getProof', [ewoq.address, [], 'latest']))
    answers.push(await this.node.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]))
    this.rec.reads[step] = digest(answers)
  }

  /** The pool and the nonces were put back (a revert): ask the node again. */
  forgetNonces(): void {
    this.nonces.clear()
  }
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex')
}

async function script(node: TestNode, restart: () => Promise<TestNode>): Promise<Recording> {
  const r = new Replay(node)
  await node.call('evm_setAutomine', [false])
  const everyone = [ewoq.address, ...senders.map((w) => w.address), fresh(0), fresh(1)]

  for (const w of senders) await r.send(ewoq, { to: w.address, value: 1_000n * 10n ** 18n })
  await r.mine(senders.length)

  const tokenTx = await r.send(ewoq, { data: bytecode('TestToken') + token.encodeDeploy([10n ** 27n]).slice(2), gasLimit: 3_000_000n })
  const probeTx = await r.send(ewoq, { data: bytecode('Probe'), gasLimit: 3_000_000n })
  const clearerTx = await r.send(ewoq, { data: CLEARER, gasLimit: 100_000n })
  await r.mine(3)
  const address = async (hash: string) => (await node.call('eth_getTransactionReceipt', [hash])).contractAddress as string
  const TOKEN = await address(tokenTx)
  const PROBE = await address(probeTx)
  const CLEARER_AT = await address(clearerTx)

  for (const w of senders) await r.send(ewoq, { to: TOKEN, data: token.encodeFunctionData('transfer', [w.address, 10n ** 21n]), gasLimit: 100_000n })
  await r.send(senders[0]!, { type: 0, to: fresh(0), value: 7n })
  await r.send(senders[1]!, {
    type: 1,
    to: TOKEN,
    data: token.encodeFunctionData('balanceOf', [ewoq.address]),
    gasLimit: 60_000n,
    accessList: [{ address: TOKEN, storageKeys: [`0x${'00'.repeat(32)}`] }],
  })
  await r.mine(senders.length + 2)

  for (let i = 0; i < 30; i++) await r.send(ewoq, { to: TOKEN, data: token.encodeFunctionData('transfer', [fresh(100 + i), BigInt(i + 1)]), gasLimit: 100_000n })
  await r.mine(30)

  const p = (fn: string, args: unknown[] = []) => ({ to: PROBE, data: probe.encodeFunctionData(fn, args), gasLimit: 200_000n })
  await r.send(senders[2]!, p('set', [5n]))
  await r.send(senders[2]!, p('burn', [200n]))
  await r.send(senders[2]!, p('transient', [9n]))
  await r.send(senders[2]!, p('fail', ['no']))
  await r.send(senders[2]!, p('panic'))
  await r.send(senders[3]!, { to: CLEARER_AT, gasLimit: 100_000n })
  // A creation that self-destructs in its constructor, sending its value on (EIP-6780: the account goes).
  await r.send(senders[3]!, { data: `0x73${fresh(1).slice(2)}ff`, value: 1_000n, gasLimit: 100_000n })
  await r.mine(7)
  await r.read('after the contracts', everyone, [
    { address: TOKEN, slots: ['0x0', '0x1', '0x2'] },
    { address: PROBE, slots: ['0x0'] },
  ])

  // Development edits of the head's state, then a block on them.
  await node.call('anvil_setBalance', [fresh(7), '0x3039'])
  await node.call('anvil_setCode', ['0x000000000000000000000000000000000000beef', '0x6001600055'])
  await node.call('anvil_setStorageAt', [TOKEN, '0x2', `0x${'00'.repeat(31)}2a`])
  await node.call('anvil_setNonce', [senders[5]!.address, '0x7'])
  await r.read('after the edits', [...everyone, fresh(7), '0x000000000000000000000000000000000000beef'], [{ address: TOKEN, slots: ['0x2'] }])
  await r.mine(0)

  // A snapshot, two blocks, the revert, two other blocks.
  const snapshot = await node.call('evm_snapshot', [])
  await r.send(senders[0]!, { to: fresh(2), value: 1n })
  await r.mine(1)
  await r.send(senders[1]!, { to: TOKEN, data: token.encodeFunctionData('transfer', [fresh(3), 5n]), gasLimit: 100_000n })
  await r.mine(1)
  expect(await node.call('evm_revert', [snapshot])).toBe(true)
  r.forgetNonces()
  await r.read('after the revert', everyone, [{ address: TOKEN, slots: ['0x0', '0x2'] }])
  await r.send(senders[0]!, { to: fresh(4), value: 2n })
  await r.mine(1)
  await r.mine(0)
  await r.mine(0)

  // 120 transfers from six senders in one block.
  for (let i = 0; i < 120; i++) await r.send(senders[i % 6]!, { to: fresh(1000 + i), value: BigInt(i + 1), type: i % 3 === 0 ? 0 : 2 })
  await r.mine(120)
  await r.read('after the big block', everyone, [{ address: TOKEN, slots: ['0x0'] }])

  // The node stops and starts again on the same data: the same chain, and the next block the same.
  const before = await node.call('eth_getBlockByNumber', ['latest', false])
  const again = await restart()
  expect((await again.call('eth_getBlockByNumber', ['latest', false])).hash).toBe(before.hash)
  await again.call('evm_setAutomine', [false])
  r.node = again
  await r.send(senders[2]!, { to: TOKEN, data: token.encodeFunctionData('transfer', [fresh(5), 1n]), gasLimit: 100_000n })
  await r.send(ewoq, { to: fresh(6), value: 3n })
  await r.mine(2)
  await r.read('after the restart', everyone, [
    { address: TOKEN, slots: ['0x0', '0x1', '0x2'] },
    { address: PROBE, slots: ['0x0'] },
  ])
  const traces = []
  for (const tx of [tokenTx, probeTx]) traces.push(await again.call('debug_traceTransaction', [tx, { tracer: 'callTracer' }]))
  r.rec.reads['traces'] = digest(traces)
  return r.rec
}

describe('the engine against golden answers (issue 34)', () => {
  it.each(['own', 'ethereumjs'] as const)('a fixed sequence of blocks: every hash, root, block, receipt and read as recorded (--evm-interpreter %s)', async (evmInterpreter) => {
    if (WRITE && evmInterpreter !== 'own') return
    let node = await startTestNode({ chain: GRANITE, config: { evmInterpreter } })
    const dataDir = node.dataDir
    let got: Recording
    try {
      got = await script(node, async () => {
        await node.stop()
        node = await startTestNode({ chain: GRANITE, dataDir, config: { evmInterpreter } })
        return node
      })
    } finally {
      await node.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
    if (WRITE) {
      mkdirSync(dirname(GOLDEN), { recursive: true })
      writeFileSync(GOLDEN, `${JSON.stringify(got, null, 1)}\n`)
      return
    }
    expect(existsSync(GOLDEN), `${GOLDEN} is missing: record it with CCHAIN_WRITE_GOLDEN=1 (see the test's header)`).toBe(true)
    const want = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Recording
    // Block by block, so a difference names its block first.
    for (let i = 0; i < Math.max(want.blocks.length, got.blocks.length); i++) expect(got.blocks[i], `block record ${i}`).toEqual(want.blocks[i])
    expect(got.reads).toEqual(want.reads)
  })
})
