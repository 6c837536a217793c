/**
 * CPU per transaction of admission and block building inside the process, without HTTP
 * (docs/PERFORMANCE.md, "Where the time goes: the state engine"): pre-signed EIP-1559 transactions
 * from 32 senders to fresh addresses, admitted with Engine.sendRawTransaction 64 at a time, each
 * batch mined with Engine.buildBlock().
 *
 *   npm run build && node dist/scripts/benchBlocks.js [--txs 2000] [--erc20] [--evm own|ethereumjs]
 *
 * `--erc20`: TestToken transfers (test/fixtures/contracts.json) instead of native transfers.
 * `--evm`: which EVM runs the blocks' transactions (the node's `--evm-interpreter`; default own).
 * Profile with `node --cpu-prof --cpu-prof-dir /tmp/prof dist/scripts/benchBlocks.js`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Interface, Wallet, getCreateAddress, hexlify, keccak256, randomBytes, toUtf8Bytes, type TransactionRequest } from 'ethers'
import { hexToBytes } from '@ethereumjs/util'
import { Engine } from '../src/engine/engine.js'
import { openDatabase } from '../src/store/db.js'
import { benchEngineOptions } from './benchEngine.js'

const args = process.argv.slice(2)
const TXS = args.includes('--txs') ? Number(args[args.indexOf('--txs') + 1]) : 2000
const ERC20 = args.includes('--erc20')
const EVM = args.includes('--evm') ? (args[args.indexOf('--evm') + 1] as 'own' | 'ethereumjs') : 'own'
const PER_BLOCK = 64
const ewoq = new Wallet('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027')
const senders = Array.from({ length: 32 }, (_, i) => new Wallet(keccak256(toUtf8Bytes(`cchain-node bench sender ${i}`))))
const fee: TransactionRequest = { type: 2, chainId: 43112n, maxFeePerGas: 300_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }
const artifacts = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/contracts.json'), 'utf8')) as { contracts: Record<string, { abi: unknown[]; bytecode: string }> }
const token = artifacts.contracts.TestToken!
const iface = new Interface(token.abi as never)

const dir = mkdtempSync(join(tmpdir(), 'bench-blocks-'))
const db = await openDatabase(dir)
const engine = await Engine.create(db, benchEngineOptions({}, EVM))

async function mine(raws: string[]): Promise<number> {
  for (const raw of raws) await engine.sendRawTransaction(hexToBytes(raw as `0x${string}`))
  let blocks = 0
  while (((await engine.buildBlock())?.txs.length ?? 0) > 0) blocks++
  return blocks
}

let nonce = 0
const tokenAddress = getCreateAddress({ from: ewoq.address, nonce: 0 })
if (ERC20) await mine([await ewoq.signTransaction({ ...fee, nonce: nonce++, gasLimit: 3_000_000n, data: token.bytecode + iface.encodeDeploy([10n ** 30n]).slice(2) })])
const setup: string[] = []
for (const s of senders) setup.push(await ewoq.signTransaction({ ...fee, nonce: nonce++, gasLimit: 21_000n, to: s.address, value: 10n ** 21n }))
if (ERC20)
  for (const s of senders) setup.push(await ewoq.signTransaction({ ...fee, nonce: nonce++, gasLimit: 100_000n, to: tokenAddress, data: iface.encodeFunctionData('transfer', [s.address, 10n ** 24n]) }))
await mine(setup)

const raws: string[] = []
for (let i = 0; i < TXS; i++) {
  const to = hexlify(randomBytes(20))
  const tx: TransactionRequest = ERC20 ? { to: tokenAddress, gasLimit: 100_000n, data: iface.encodeFunctionData('transfer', [to, 1n]) } : { to, gasLimit: 21_000n, value: 1n }
  raws.push(await senders[i % 32]!.signTransaction({ ...fee, ...tx, nonce: Math.floor(i / 32) }))
}
const start = process.cpuUsage()
const t0 = performance.now()
let admitUs = 0
let blocks = 0
for (let i = 0; i < TXS; i += PER_BLOCK) {
  const c = process.cpuUsage()
  for (const raw of raws.slice(i, i + PER_BLOCK)) await engine.sendRawTransaction(hexToBytes(raw as `0x${string}`))
  const used = process.cpuUsage(c)
  admitUs += used.user + used.system
  while (((await engine.buildBlock())?.txs.length ?? 0) > 0) blocks++
}
const used = process.cpuUsage(start)
const total = used.user + used.system
console.log(`${ERC20 ? 'ERC-20' : 'native'} transfers: ${TXS} in ${blocks} blocks, ${(performance.now() - t0).toFixed(0)} ms`)
console.log(`  CPU us/tx: ${(total / TXS).toFixed(0)} (admission ${(admitUs / TXS).toFixed(0)}, building ${((total - admitUs) / TXS).toFixed(0)})`)
await engine.close()
await db.close()
rmSync(dir, { recursive: true, force: true })
