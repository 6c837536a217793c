import { createNode } from './dist/src/node.js'
import { parseNodeConfig } from './dist/src/config.js'
import { Wallet, Transaction, Interface } from 'ethers'
import contracts from './test/fixtures/contracts.json' with { type: 'json' }
import { mkdtempSync } from 'node:fs'
const node = await createNode(parseNodeConfig({ httpHost: '127.0.0.1', httpPort: 0, dataDir: mkdtempSync('/tmp/rev-'), logLevel: 'silent' }))
const engine = node.engine, controls = node.dev.controls
const w = new Wallet('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027')
let nonce = 0
const I = new Interface(contracts.contracts.TestToken.abi)
const sign = async (tx) => Buffer.from((await w.signTransaction(Transaction.from({ type: 2, chainId: 43112n, nonce: nonce++, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, gasLimit: 2_000_000n, ...tx }))).slice(2), 'hex')
await engine.sendRawTransaction(await sign({ data: contracts.contracts.TestToken.bytecode + I.encodeDeploy([10n ** 24n]).slice(2) }))
const token = '0x' + Buffer.from(engine.receipts(engine.head)[0].contractAddress ?? []).toString('hex')
const N = Number(process.env.N ?? 300)
const SNAP = process.env.SNAP !== '0'
const signed = []
for (let i = 0; i < N; i++) { const n0 = nonce; const l = []; for (let j = 0; j < 3; j++) l.push(await sign({ to: token, data: I.encodeFunctionData('transfer', ['0x' + (i * 7 + j + 1).toString(16).padStart(40, '0'), 5n]) })); signed.push(l); if (SNAP) nonce = n0 }
let tSend = 0
globalThis.__T = {}
for (let i = 0; i < N; i++) {
  const id = SNAP ? await controls.snapshot() : 0n
  for (const raw of signed[i]) { globalThis.__last = performance.now(); const t = performance.now(); await engine.sendRawTransaction(raw); tSend += performance.now() - t; globalThis.__last = undefined }
  if (SNAP) await controls.revert(id)
}
console.log('per send', (tSend / N / 3).toFixed(3))
for (const [k, v] of Object.entries(globalThis.__T).sort()) console.log(k.padEnd(24), (v / N / 3).toFixed(3))
await node.close()
console.log('writeBatch', JSON.stringify(globalThis.__W), 'getMany ms', globalThis.__G)
