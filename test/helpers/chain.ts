import { Interface, Wallet, type TransactionRequest } from 'ethers'
import { EWOQ_KEY, contracts, type TestNode } from './testNode.js'

/*
 * Transaction helpers for the integration tests: sign with ethers' Wallet (a real client's
 * encoder), submit over the node's JSON-RPC, and wait for the receipt by bounded polling.
 */

export const CHAIN_ID = 43112n
export const ewoq = new Wallet(EWOQ_KEY)
/** A fee cap comfortably above the local chain's base fee and under rpc-tx-fee-cap for 10M gas. */
export const FEE_CAP = 100_000_000_000n // 100 gwei
export const TIP = 1_000_000_000n // 1 gwei

export type ContractName = keyof typeof contracts.contracts
export const iface = (name: ContractName) => new Interface(contracts.contracts[name].abi as never)
export const bytecode = (name: ContractName) => contracts.contracts[name].bytecode as string

/** Polls `check` until it returns a value other than null/undefined, at most `timeoutMs`. */
export async function poll<T>(check: () => Promise<T | null | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await check()
    if (v !== null && v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

/** Waits for a transaction's receipt (the node builds a block as soon as transactions wait). */
export function waitReceipt(node: TestNode, hash: string, timeoutMs?: number): Promise<any> {
  return poll(() => node.call('eth_getTransactionReceipt', [hash]), `receipt of ${hash}`, timeoutMs)
}

/** Signs an EIP-1559 (default), EIP-2930 or legacy transaction with defaults filled in. */
export async function sign(tx: TransactionRequest, wallet: Wallet = ewoq): Promise<string> {
  const type = tx.type ?? 2
  const base: TransactionRequest = { chainId: CHAIN_ID, gasLimit: 21_000n, value: 0n, ...tx, type }
  if (type === 2) {
    base.maxFeePerGas ??= FEE_CAP
    base.maxPriorityFeePerGas ??= TIP
  } else {
    base.gasPrice ??= FEE_CAP
  }
  return wallet.signTransaction(base)
}

/** Next nonce of `address` as the node counts it ('pending' includes the pool). */
export async function nonceOf(node: TestNode, address: string, tag = 'pending'): Promise<number> {
  return Number(await node.call('eth_getTransactionCount', [address, tag]))
}

/**
 * Signs, sends and waits for the receipt; returns hash and receipt. A transaction that failed in its
 * block is mined all the same: where the node answers that send with hardhat node's error (a
 * development chain, docs/DEV.md), the hash is the error's `txHash`.
 */
export async function send(node: TestNode, tx: TransactionRequest, wallet: Wallet = ewoq): Promise<{ hash: string; receipt: any }> {
  const nonce = tx.nonce ?? (await nonceOf(node, wallet.address))
  const raw = await sign({ ...tx, nonce }, wallet)
  const answer = await node.rpc('eth_sendRawTransaction', [raw])
  const hash = answer.result ?? (answer.error?.data as { txHash?: string } | undefined)?.txHash
  if (hash === undefined) throw Object.assign(new Error(answer.error?.message), { code: answer.error?.code, data: answer.error?.data })
  return { hash, receipt: await waitReceipt(node, hash) }
}

/** Deploys a fixture contract from ewoq; returns its address and the deployment receipt. */
export async function deploy(node: TestNode, name: ContractName, args: unknown[] = [], wallet: Wallet = ewoq): Promise<{ address: string; receipt: any; hash: string }> {
  const data = bytecode(name) + iface(name).encodeDeploy(args).slice(2)
  const { hash, receipt } = await send(node, { data, gasLimit: 3_000_000n }, wallet)
  if (receipt.status !== '0x1') throw new Error(`deployment of ${name} failed`)
  return { address: receipt.contractAddress, receipt, hash }
}

/** A fresh random wallet funded by ewoq with `amount` wei. */
export async function fundedWallet(node: TestNode, amount: bigint): Promise<Wallet> {
  const w = Wallet.createRandom()
  await send(node, { to: w.address, value: amount })
  return new Wallet(w.privateKey)
}
