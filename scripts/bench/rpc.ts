/** JSON-RPC over keep-alive HTTP, and the bench's setup through it: fees, the token, the funded senders. */
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import { Interface, Wallet, keccak256, toUtf8Bytes } from 'ethers'
import { sleep } from './types.js'

const RPC_TIMEOUT_MS = 15_000

export class RpcClient {
  readonly agent: Agent
  readonly host: string
  readonly port: number
  readonly path: string
  private nextId = 1
  constructor(url: string, connections: number) {
    const u = new URL(url)
    if (u.protocol !== 'http:') throw new Error(`only http:// URLs are measured, not ${url}`)
    this.host = u.hostname.replace(/^\[|\]$/g, '')
    this.port = Number(u.port || 80)
    this.path = u.pathname + u.search
    this.agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections })
  }

  /** POSTs a raw body; resolves with the status and the response text. */
  post(body: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.host,
          port: this.port,
          path: this.path,
          method: 'POST',
          agent: this.agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          timeout: RPC_TIMEOUT_MS,
        },
        (res) => {
          let text = ''
          res
            .setEncoding('utf8')
            .on('data', (c: string) => {
              text += c
            })
            .on('end', () => resolve({ status: res.statusCode ?? 0, text }))
        },
      )
      req.on('timeout', () => req.destroy(new Error('RPC request timed out')))
      req.on('error', reject)
      req.end(body)
    })
  }

  /** Calls a method and returns its result; throws on an HTTP or JSON-RPC error. */
  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const { status, text } = await this.post(JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }))
    if (status !== 200) throw new Error(`${method}: HTTP ${status}: ${text.slice(0, 300)}`)
    const msg = JSON.parse(text) as { result?: T; error?: { code: number; message: string } }
    if (msg.error) throw new Error(`${method}: ${msg.error.code} ${msg.error.message}`)
    return msg.result as T
  }

  close(): void {
    this.agent.destroy()
  }
}

export async function waitReceipt(rpc: RpcClient, hash: string, timeoutMs = 30_000): Promise<{ status: string; contractAddress?: string }> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const r = await rpc.call<{ status: string; contractAddress?: string } | null>('eth_getTransactionReceipt', [hash])
    if (r) return r
    if (Date.now() > until) throw new Error(`no receipt for ${hash} after ${timeoutMs} ms`)
    await sleep(10)
  }
}

/** Where the setup transactions go: the node, the funded wallet, the chain ID to sign for. */
export interface Chain {
  rpc: RpcClient
  wallet: Wallet
  chainId: bigint
  /** Base fee from the latest block (any node) rather than the C-Chain's `eth_baseFee` (this node, as before). */
  standardFees: boolean
}

export interface Fees {
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/** Fees with headroom: tip from eth_maxPriorityFeePerGas, max fee 4x the base fee plus the tip. */
export async function fees(c: Chain): Promise<Fees> {
  const baseFee = c.standardFees ? c.rpc.call<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false]).then((b) => b.baseFeePerGas ?? '0x0') : c.rpc.call<string>('eth_baseFee')
  const [base, tip] = await Promise.all([baseFee, c.rpc.call<string>('eth_maxPriorityFeePerGas')])
  const maxPriorityFeePerGas = BigInt(tip)
  return { maxPriorityFeePerGas, maxFeePerGas: BigInt(base) * 4n + maxPriorityFeePerGas }
}

/** Deploys TestToken (test/fixtures/contracts.json) with 10^27 units minted to the wallet; its address. */
export async function deployToken(c: Chain): Promise<string> {
  const artifacts = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/contracts.json'), 'utf8')) as { contracts: Record<string, { abi: unknown[]; bytecode: string }> }
  const token = artifacts.contracts.TestToken
  const data = token.bytecode + new Interface(token.abi as never).encodeDeploy([10n ** 27n]).slice(2)
  const from = c.wallet.address
  const nonce = BigInt(await c.rpc.call<string>('eth_getTransactionCount', [from, 'pending']))
  const gas = BigInt(await c.rpc.call<string>('eth_estimateGas', [{ from, data }]))
  const raw = await c.wallet.signTransaction({ type: 2, chainId: c.chainId, nonce: Number(nonce), gasLimit: gas + gas / 5n, data, ...(await fees(c)) })
  const hash = await c.rpc.call<string>('eth_sendRawTransaction', [raw])
  const receipt = await waitReceipt(c.rpc, hash)
  if (receipt.status !== '0x1' || !receipt.contractAddress) throw new Error(`TestToken deployment failed: ${JSON.stringify(receipt)}`)
  return receipt.contractAddress
}

/** Deterministic sender keys: keccak256("cchain-node bench sender <i>"). */
export function senderWallets(n: number): Wallet[] {
  return Array.from({ length: n }, (_, i) => new Wallet(keccak256(toUtf8Bytes(`cchain-node bench sender ${i}`))))
}

export async function fundSenders(c: Chain, senders: Wallet[]): Promise<void> {
  const nonce = Number(BigInt(await c.rpc.call<string>('eth_getTransactionCount', [c.wallet.address, 'pending'])))
  const f = await fees(c)
  const value = 1000n * 10n ** 18n
  const raws = await Promise.all(senders.map((s, i) => c.wallet.signTransaction({ type: 2, chainId: c.chainId, nonce: nonce + i, to: s.address, value, gasLimit: 21000n, ...f })))
  const hashes: string[] = []
  for (const raw of raws) hashes.push(await c.rpc.call<string>('eth_sendRawTransaction', [raw]))
  for (const h of hashes) {
    const r = await waitReceipt(c.rpc, h)
    if (r.status !== '0x1') throw new Error(`funding transfer ${h} failed`)
  }
}
