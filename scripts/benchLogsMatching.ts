/**
 * eth_getLogs when many blocks match (the peer harness's W7 in-process, without HTTP): 32 senders
 * make ERC-20 transfers, 30 to a block (the builder's blocks under the harness), then the engine is
 * closed and opened again (nothing of the chain in memory) and every Transfer log of the chain is
 * asked for and written as eth_getLogs' JSON answer, eight times: the first query reads every block
 * back from LevelDB; the later ones find what the engine kept of them (the log index's blocks' logs,
 * src/engine/logs/logIndex.ts, and each log's JSON text, src/rpc/format.ts), which the figures say apart.
 *
 *   npm run build && node dist/scripts/benchLogsMatching.js [--transfers 6000]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hexToBytes } from '@ethereumjs/util'
import { Interface, Wallet, getCreateAddress, hexlify, id, keccak256, randomBytes, toUtf8Bytes, type TransactionRequest } from 'ethers'
import { Engine } from '../src/engine/engine.js'
import { logsJson } from '../src/rpc/format.js'
import { openDatabase } from '../src/store/db.js'
import { benchEngineOptions } from './benchEngine.js'

const args = process.argv.slice(2)
const TRANSFERS = args.includes('--transfers') ? Number(args[args.indexOf('--transfers') + 1]) : 6000
const PER_BLOCK = 30
const ewoq = new Wallet('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027')
const senders = Array.from({ length: 32 }, (_, i) => new Wallet(keccak256(toUtf8Bytes(`cchain-node bench sender ${i}`))))
const fee: TransactionRequest = { type: 2, chainId: 43112n, maxFeePerGas: 300_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }
const token = (JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/contracts.json'), 'utf8')) as { contracts: Record<string, { abi: unknown[]; bytecode: string }> }).contracts.TestToken!
const iface = new Interface(token.abi as never)

const dir = mkdtempSync(join(tmpdir(), 'bench-logs-matching-'))
const open = async () => {
  const db = await openDatabase(dir)
  return { db, engine: await Engine.create(db, benchEngineOptions({ 'api-max-blocks-per-request': 0 }, 'own')) }
}

let { db, engine } = await open()
async function mine(raws: string[]): Promise<void> {
  for (let i = 0; i < raws.length; i += PER_BLOCK) {
    for (const raw of raws.slice(i, i + PER_BLOCK)) await engine.sendRawTransaction(hexToBytes(raw as `0x${string}`))
    while (((await engine.buildBlock())?.txs.length ?? 0) > 0) {}
  }
}
let nonce = 0
const tokenAddress = getCreateAddress({ from: ewoq.address, nonce: 0 })
const setup = [await ewoq.signTransaction({ ...fee, nonce: nonce++, gasLimit: 3_000_000n, data: token.bytecode + iface.encodeDeploy([10n ** 30n]).slice(2) })]
for (const s of senders) setup.push(await ewoq.signTransaction({ ...fee, nonce: nonce++, gasLimit: 21_000n, to: s.address, value: 10n ** 21n }))
for (const s of senders) setup.push(await ewoq.signTransaction({ ...fee, nonce: nonce++, gasLimit: 100_000n, to: tokenAddress, data: iface.encodeFunctionData('transfer', [s.address, 10n ** 24n]) }))
await mine(setup)
const raws: string[] = []
for (let i = 0; i < TRANSFERS; i++) {
  raws.push(
    await senders[i % 32]!.signTransaction({ ...fee, to: tokenAddress, gasLimit: 100_000n, data: iface.encodeFunctionData('transfer', [hexlify(randomBytes(20)), 1n]), nonce: Math.floor(i / 32) }),
  )
}
await mine(raws)
const head = engine.head.header.number
await engine.close()
await db.close()
;({ db, engine } = await open())

const query = {
  fromBlock: 0n,
  toBlock: 'latest' as const,
  criteria: { addresses: [hexToBytes(tokenAddress as `0x${string}`)], topics: [[hexToBytes(id('Transfer(address,address,uint256)') as `0x${string}`)]] },
}
const times: number[] = []
let count = 0
for (let i = 0; i < 8; i++) {
  const t = performance.now()
  const logs = await engine.getLogs(query)
  const text = logsJson(logs)
  times.push(performance.now() - t)
  count = logs.length
  if (text.text.length === 0) throw new Error('empty answer')
}
const later = times.slice(1)
console.log(
  `${count} Transfer logs over ${head} blocks: first query after a restart ${times[0]!.toFixed(0)} ms; the next seven ${Math.min(...later).toFixed(0)}-${Math.max(...later).toFixed(0)} ms (mean ${(later.reduce((a, b) => a + b, 0) / later.length).toFixed(0)})`,
)
await engine.close()
await db.close()
rmSync(dir, { recursive: true, force: true })
