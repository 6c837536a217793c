/**
 * What Hardhat 2's automatic gas price asks this node before each send (docs/PERFORMANCE.md, "What
 * Hardhat asks before each send"): eth_feeHistory(1, latest, [50]) every time, and
 * eth_maxPriorityFeePerGas when that block's median effective tip is 0. At the local chain's base
 * fee of 1 wei, Hardhat's fee cap (81/64 of it) is 1 wei too, so its transactions pay no tip and it
 * asks on every send, as geth's fee history tells it to; with a lowest tip of 2 wei
 * (tx-pool-price-limit) its fee cap covers a tip and it asks once.
 */
import { execFile } from 'node:child_process'
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GRANITE, startTestNode, type TestNode } from '../helpers/testNode.js'

const PROJECT = join(process.cwd(), 'test/fixtures/hardhat2')
const HARDHAT = join(process.cwd(), 'node_modules/.bin/hardhat')
const SENDS = 4

/** Hardhat's requests, through a proxy that notes each method before passing it on to the node. */
async function hardhatSends(node: TestNode): Promise<{ methods: string[]; hashes: string[] }> {
  const methods: string[] = []
  const proxy = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const body = Buffer.concat(chunks).toString()
    const parsed = JSON.parse(body)
    for (const r of Array.isArray(parsed) ? parsed : [parsed]) methods.push(r.method)
    const answer = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    res.setHeader('content-type', 'application/json')
    res.end(await answer.text())
  })
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  try {
    const env = { ...process.env, CCHAIN_RPC_URL: url, SENDS: String(SENDS), HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' }
    const out = await new Promise<string>((resolve, reject) => {
      execFile(HARDHAT, ['run', 'scripts/sends.cjs', '--network', 'cchain', '--no-compile'], { cwd: PROJECT, env, timeout: 60_000 }, (err, stdout, stderr) =>
        err === null ? resolve(stdout) : reject(new Error(stderr || err.message)),
      )
    })
    return { methods, hashes: JSON.parse(out.trim().split('\n').at(-1)!) }
  } finally {
    await new Promise((r) => proxy.close(r))
  }
}

const count = (methods: string[], name: string) => methods.filter((m) => m === name).length

describe("Hardhat 2's automatic gas price against the node", () => {
  it('the local chain (tips from 1 wei): every send pays no tip, so Hardhat asks eth_maxPriorityFeePerGas before each', async () => {
    const node = await startTestNode({ chain: GRANITE })
    try {
      const { methods, hashes } = await hardhatSends(node)
      expect(count(methods, 'eth_sendRawTransaction')).toBe(SENDS)
      expect(count(methods, 'eth_feeHistory')).toBe(SENDS)
      expect(count(methods, 'eth_maxPriorityFeePerGas')).toBe(SENDS)
      const tx = await node.call('eth_getTransactionByHash', [hashes.at(-1)])
      expect([tx.maxFeePerGas, tx.maxPriorityFeePerGas]).toEqual(['0x1', '0x1'])
      expect((await node.call('eth_feeHistory', ['0x1', 'latest', [50]])).reward).toEqual([['0x0']])
    } finally {
      await node.close()
    }
  })

  it('tx-pool-price-limit 2: the first send pays a 2 wei tip, the next ones read it from eth_feeHistory and do not ask', async () => {
    const node = await startTestNode({ chain: { ...GRANITE, 'tx-pool-price-limit': 2 } })
    try {
      const { methods, hashes } = await hardhatSends(node)
      expect(count(methods, 'eth_sendRawTransaction')).toBe(SENDS)
      expect(count(methods, 'eth_feeHistory')).toBe(SENDS)
      expect(count(methods, 'eth_maxPriorityFeePerGas')).toBe(1)
      const tx = await node.call('eth_getTransactionByHash', [hashes.at(-1)])
      expect([tx.maxFeePerGas, tx.maxPriorityFeePerGas]).toEqual(['0x3', '0x2'])
      expect((await node.call('eth_feeHistory', ['0x1', 'latest', [50]])).reward).toEqual([['0x2']])
    } finally {
      await node.close()
    }
  })
})
