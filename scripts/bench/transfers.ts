/** The transfer rounds: pre-signed EIP-1559 transfers from many senders, counted as they are mined. */
import type { Wallet } from 'ethers'
import type { Fees, RpcClient } from './rpc.js'
import { type CpuClock, type TransferRun, sleep } from './types.js'

const TRANSFER_ROUND_TIMEOUT_MS = 120_000

/** Pre-signs one round: sender i sends nonces base..base+k-1; 2,000 over 32 senders is 63 or 62 each. */
export async function signRound(senders: Wallet[], total: number, nonceBase: number[], f: Fees, chainId: bigint): Promise<string[][]> {
  const perSender = senders.map((_, i) => Math.floor(total / senders.length) + (i < total % senders.length ? 1 : 0))
  const out: string[][] = []
  for (let i = 0; i < senders.length; i++) {
    const list: string[] = []
    for (let k = 0; k < perSender[i]; k++) {
      const to = senders[(i + 1 + k) % senders.length].address
      list.push(await senders[i].signTransaction({ type: 2, chainId, nonce: nonceBase[i] + k, to, value: 1n, gasLimit: 21000n, ...f }))
    }
    out.push(list)
  }
  return out
}

/**
 * Sends every sender's transfers in nonce order over its own keep-alive connection (32 at once), and
 * counts the transactions in the blocks built since the start until all are in; the clock runs from
 * the first send to the poll that sees the last one mined.
 */
export async function transferRound(rpc: RpcClient, poller: RpcClient, signed: string[][], cpu: CpuClock): Promise<TransferRun> {
  const total = signed.reduce((n, l) => n + l.length, 0)
  const startBlock = Number(BigInt(await poller.call<string>('eth_blockNumber')))
  const cpu0 = cpu()
  let sendErrors = 0
  let sendsDone = false
  let firstError: string | undefined
  const t0 = performance.now()
  const senders = signed.map(async (list) => {
    for (const raw of list) {
      try {
        const { status, text } = await rpc.post(`{"jsonrpc":"2.0","id":1,"method":"eth_sendRawTransaction","params":["${raw}"]}`)
        if (status !== 200 || !text.includes('"result"')) {
          sendErrors++
          firstError ??= `HTTP ${status} ${text.slice(0, 200)}`
        }
      } catch (err) {
        sendErrors++
        firstError ??= String(err)
      }
    }
  })
  const allSent = Promise.all(senders).then(() => {
    sendsDone = true
  })
  let mined = 0
  let seen = startBlock
  let t1 = 0
  const deadline = t0 + TRANSFER_ROUND_TIMEOUT_MS
  while (mined < total - (sendsDone ? sendErrors : 0)) {
    const head = Number(BigInt(await poller.call<string>('eth_blockNumber')))
    for (let n = seen + 1; n <= head; n++) {
      const b = await poller.call<{ transactions: string[] }>('eth_getBlockByNumber', ['0x' + n.toString(16), false])
      mined += b.transactions.length
    }
    seen = head
    t1 = performance.now()
    if (mined >= total - (sendsDone ? sendErrors : 0)) break
    if (t1 > deadline) throw new Error(`only ${mined} of ${total} transfers mined after ${TRANSFER_ROUND_TIMEOUT_MS} ms (${sendErrors} send errors${firstError ? `, first: ${firstError}` : ''})`)
    await sleep(5)
  }
  await allSent
  if (firstError) process.stderr.write(`  transfer send error: ${firstError}\n`)
  const seconds = (t1 - t0) / 1000
  return { tps: mined / seconds, mined, cpuUs: (cpu() - cpu0) / mined, seconds, blocks: seen - startBlock, sendErrors }
}
