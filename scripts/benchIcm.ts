/**
 * An interchain round trip from a cold start (docs/PERFORMANCE.md, "Interchain messaging"): the CLI is
 * started on an empty data directory with the example chains and the test messenger's keyless
 * deployment (test/fixtures/contracts.json's ICMTestMessenger, deployed as Teleporter is); ewoq
 * deploys an echo on dexchain and a receiver on the C-Chain, then sends one Teleporter message
 * C -> dexchain; the echo answers dexchain -> C; the clock stops when the C-Chain's receiver has it.
 * The node's relayer carries both legs.
 *
 *   npm run build && node dist/scripts/benchIcm.js [--runs 3]
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AbiCoder, Interface, Transaction, Wallet, getCreateAddress } from 'ethers'

const args = process.argv.slice(2)
const RUNS = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 3
const contracts = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/contracts.json'), 'utf8')).contracts
const ewoq = new Wallet('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027')
const messengerAbi = new Interface(contracts.ICMTestMessenger.abi)
const receiverAbi = new Interface(contracts.ICMTestReceiver.abi)
const WARP = '0x0200000000000000000000000000000000000005'

async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

async function send(url: string, chainId: bigint, tx: { to?: string; data: string; gasLimit: bigint }): Promise<any> {
  const nonce = Number(await rpc(url, 'eth_getTransactionCount', [ewoq.address, 'pending']))
  const raw = await ewoq.signTransaction({ ...tx, type: 2, chainId, nonce, maxFeePerGas: 100n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n })
  return rpc(url, 'eth_getTransactionReceipt', [await rpc(url, 'eth_sendRawTransaction', [raw])])
}

async function run(): Promise<{ start: number; roundTrip: number; total: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'cchain-bench-icm-'))
  const unsigned = Transaction.from({ type: 0, nonce: 0, gasPrice: 100n * 10n ** 9n, gasLimit: 3_000_000n, data: contracts.ICMTestMessenger.bytecode })
  const keyless = Transaction.from({ ...unsigned.toJSON(), signature: { r: `0x${'33'.repeat(32)}`, s: `0x${'33'.repeat(32)}`, v: 27 } })
  const messenger = getCreateAddress({ from: keyless.from!, nonce: 0 })
  writeFileSync(join(dir, 'deployment.txt'), keyless.serialized)
  const t0 = performance.now()
  const proc = spawn(
    process.execPath,
    [
      'dist/src/main.js',
      '--http-port',
      '0',
      '--data-dir',
      join(dir, 'data'),
      '--log-level',
      'error',
      '--chain-config-dir',
      'examples/chains',
      '--icm-messenger-deployment-tx',
      join(dir, 'deployment.txt'),
      '--icm-messenger-address',
      messenger,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  try {
    let out = ''
    const c = await new Promise<string>((resolve, reject) => {
      proc.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        const m = /JSON-RPC\s+(http:\/\/127\.0\.0\.1:\d+\/ext\/bc\/C\/rpc)/.exec(out)
        if (m !== null) resolve(m[1]!)
      })
      proc.once('exit', (code) => reject(new Error(`node exited with ${code}`)))
    })
    const dex = c.replace('/ext/bc/C/rpc', '/ext/bc/dexchain/rpc')
    const started = performance.now()
    const receiver = (await send(c, 43112n, { data: contracts.ICMTestReceiver.bytecode, gasLimit: 1_000_000n })).contractAddress
    const echo = (await send(dex, 99901n, { data: contracts.ICMTestEcho.bytecode + AbiCoder.defaultAbiCoder().encode(['address'], [messenger]).slice(2), gasLimit: 1_000_000n })).contractAddress
    const dexID = (await rpc(dex, 'eth_call', [{ to: WARP, data: '0x4213cf78' }, 'latest'])) as string
    const sendAt = performance.now()
    const message = AbiCoder.defaultAbiCoder().encode(['address'], [receiver])
    const input = {
      destinationBlockchainID: dexID,
      destinationAddress: echo,
      feeInfo: { feeTokenAddress: `0x${'00'.repeat(20)}`, amount: 0n },
      requiredGasLimit: 500_000n,
      allowedRelayerAddresses: [],
      message,
    }
    await send(c, 43112n, { to: messenger, data: messengerAbi.encodeFunctionData('sendCrossChainMessage', [input]), gasLimit: 1_000_000n })
    for (;;) {
      const got = BigInt(await rpc(c, 'eth_call', [{ to: receiver, data: receiverAbi.encodeFunctionData('received') }, 'latest']))
      if (got === 1n) break
      await new Promise((r) => setTimeout(r, 5))
    }
    const end = performance.now()
    return { start: started - t0, roundTrip: end - sendAt, total: end - t0 }
  } finally {
    proc.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}

for (let i = 0; i < RUNS; i++) {
  const r = await run()
  console.log(`run ${i + 1}: node up ${r.start.toFixed(0)} ms; C -> dexchain -> C round trip ${r.roundTrip.toFixed(0)} ms; cold start to the answer on C ${r.total.toFixed(0)} ms`)
}
