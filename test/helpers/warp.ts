import { Interface, Wallet } from 'ethers'
import { EWOQ_KEY } from './testNode.js'

/** The Warp precompile's address and its interface (coreth's IWarpMessenger). */
export const WARP = '0x0200000000000000000000000000000000000005'
export const warp = new Interface([
  'event SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message)',
  'function sendWarpMessage(bytes payload) returns (bytes32 messageID)',
  'function getVerifiedWarpMessage(uint32 index) view returns ((bytes32 sourceChainID, address originSenderAddress, bytes payload) message, bool valid)',
  'function getVerifiedWarpBlockHash(uint32 index) view returns ((bytes32 sourceChainID, bytes32 blockHash) warpBlockHash, bool valid)',
  'function getBlockchainID() view returns (bytes32 blockchainID)',
])

export const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`
export const bytes = (text: string) => Uint8Array.from(Buffer.from(text.slice(2), 'hex'))

/**
 * Creation code of a contract that forwards its calldata to the precompile by CALL or STATICCALL and
 * hands back the success word followed by the return data: as its own return data (`return`), or as
 * the data of a LOG0 (`log`), so a mined transaction shows what the precompile answered in it.
 * Hand-assembled: copy calldata, call, store the success word, copy the return data, return or log.
 */
export function forwarderCode(call: 'call' | 'static', answer: 'return' | 'log'): string {
  const target = `73${WARP.slice(2)}`
  const invoke = call === 'call' ? `5f5f365f5f${target}5af1` : `5f5f365f${target}5afa`
  const end = answer === 'return' ? '5ff3' : '5fa000'
  const runtime = `365f5f37${invoke}5f523d5f60203e3d602001${end}`
  return `0x60${(runtime.length / 2).toString(16).padStart(2, '0')}8060095f395ff3${runtime}`
}

/** JSON-RPC on one chain of the node, and a signed send that waits for its receipt. */
export function chainAt(url: string, wallet: Wallet = new Wallet(EWOQ_KEY)) {
  let id = 0
  const call = async (method: string, params: unknown[] = []): Promise<any> => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const answer = (await res.json()) as { result?: any; error?: { message: string } }
    if (answer.error !== undefined) throw new Error(answer.error.message)
    return answer.result
  }
  const send = async (tx: { to?: string; data: string; gasLimit: bigint; accessList?: { address: string; storageKeys: string[] }[] }) => {
    const chainId = BigInt(await call('eth_chainId'))
    const nonce = Number(await call('eth_getTransactionCount', [wallet.address, 'pending']))
    const raw = await wallet.signTransaction({ ...tx, type: 2, chainId, nonce, maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n })
    const hash = await call('eth_sendRawTransaction', [raw])
    return (await call('eth_getTransactionReceipt', [hash])) as any
  }
  return { call, send }
}
