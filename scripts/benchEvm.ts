/**
 * CPU per eth_call inside the process, without HTTP (docs/PERFORMANCE.md, "The EVM's cost per call"):
 * ERC-20 `balanceOf` of a holder never asked before, as the peer harness's W3d does.
 *
 *   npm run build && node dist/scripts/benchEvm.js [--calls 5000] [--rounds 3] [--raw] [--own] [--oracle]
 *
 * Default: the node's own path, Engine.call at `latest` on a chain whose genesis holds the fixture
 * TestToken (test/fixtures/contracts.json) with 2,000 funded holders. `--raw`: ethereumjs alone,
 * `evm.runCall` on an in-memory SimpleStateManager, the floor the node's path is compared with.
 * `--own`: the node's path with its own interpreter (`--evm-interpreter own`), `--oracle` with ethereumjs checking it.
 * Profile with `node --cpu-prof --cpu-prof-dir /tmp/prof dist/scripts/benchEvm.js`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Interface, keccak256 } from 'ethers'
import { createEVM } from '@ethereumjs/evm'
import { SimpleStateManager } from '@ethereumjs/statemanager'
import { Account, Address, hexToBytes, setLengthLeft, bigIntToBytes, bytesToHex } from '@ethereumjs/util'
import { engineOptions } from '../src/chains/engineOptions.js'
import { ChainConfigFile } from '../src/config.js'
import { Engine } from '../src/engine/engine.js'
import { loadGenesis } from '../src/engine/rules/genesis.js'
import { createLogger } from '../src/log.js'
import { openDatabase } from '../src/store/db.js'

const args = process.argv.slice(2)
const opt = (name: string, def: number) => {
  const i = args.indexOf(name)
  return i >= 0 ? Number(args[i + 1]) : def
}
const CALLS = opt('--calls', 5000)
const ROUNDS = opt('--rounds', 3)
const RAW = args.includes('--raw')
const EVM = { interpreter: args.includes('--own') ? ('own' as const) : ('ethereumjs' as const), oracle: args.includes('--oracle') }
const HOLDERS = 2000
const TOKEN = '0x' + '7e'.repeat(20)
const EWOQ = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc'

const artifacts = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/contracts.json'), 'utf8')) as {
  contracts: Record<string, { abi: unknown[]; deployedBytecode: string }>
}
const token = artifacts.contracts.TestToken!
const iface = new Interface(token.abi as never)
/** Holder i: a distinct address (cheap to make, so the profile shows the calls). */
const holder = (i: number) => '0x' + (0x1000000 + i).toString(16).padStart(40, '9')
const SELECTOR = iface.getFunction('balanceOf')!.selector.slice(2)
const balanceOf = (who: string) => hexToBytes(`0x${SELECTOR}${who.slice(2).padStart(64, '0')}`)

/** The token's storage: totalSupply (slot 0) and balanceOf (mapping at slot 1) of ewoq and HOLDERS others. */
function tokenStorage(): Record<string, string> {
  const slotOf = (who: string) => keccak256(bytesToHex(setLengthLeft(hexToBytes(who as `0x${string}`), 32)) + '0'.repeat(63) + '1')
  const storage: Record<string, string> = { ['0x' + '0'.repeat(64)]: '0x' + (10n ** 27n).toString(16) }
  for (const who of [EWOQ, ...Array.from({ length: HOLDERS }, (_, i) => holder(i))]) storage[slotOf(who)] = '0x' + (10n ** 18n).toString(16)
  return storage
}

type Call = (data: Uint8Array) => Promise<Uint8Array>

async function engineCall(): Promise<{ call: Call; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-evm-'))
  const genesis = loadGenesis()
  genesis.alloc[TOKEN.slice(2)] = { balance: 0n, code: token.deployedBytecode, storage: tokenStorage() }
  const db = await openDatabase(dir)
  const opts = engineOptions(ChainConfigFile.parse({}), { genesis, log: createLogger('error'), blockInterval: 0, pendingNonceGuardMs: 0, devChain: false, failedSendErrors: false, evm: EVM })
  const engine = await Engine.create(db, opts)
  const to = hexToBytes(TOKEN as `0x${string}`)
  return {
    call: (input) => engine.call({ to, input }, 'latest'),
    close: async () => {
      await engine.close()
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function rawCall(): Promise<{ call: Call; close: () => Promise<void> }> {
  const sm = new SimpleStateManager()
  const evm = await createEVM({ stateManager: sm })
  const to = new Address(hexToBytes(TOKEN as `0x${string}`))
  await sm.putAccount(to, new Account())
  await sm.putCode(to, hexToBytes(token.deployedBytecode as `0x${string}`))
  for (const [slot, value] of Object.entries(tokenStorage())) await sm.putStorage(to, hexToBytes(slot as `0x${string}`), bigIntToBytes(BigInt(value)))
  const caller = new Address(hexToBytes(EWOQ as `0x${string}`))
  return {
    call: async (data) => (await evm.runCall({ to, caller, data, gasLimit: 30_000_000n })).execResult.returnValue,
    close: async () => undefined,
  }
}

const { call, close } = RAW ? await rawCall() : await engineCall()
const known = await call(balanceOf(EWOQ))
if (BigInt(bytesToHex(known)) !== 10n ** 18n) throw new Error(`balanceOf(ewoq) answered ${bytesToHex(known)}`)
let n = 0
const round = async (calls: number) => {
  const inputs = Array.from({ length: calls }, () => balanceOf(holder(HOLDERS + n++)))
  const cpu = process.cpuUsage()
  const t0 = performance.now()
  for (const input of inputs) {
    const out = await call(input)
    if (out.length !== 32 || out.some((b) => b !== 0)) throw new Error(`a new holder's balance answered ${bytesToHex(out)}`)
  }
  const used = process.cpuUsage(cpu)
  return { wallUs: ((performance.now() - t0) * 1000) / calls, cpuUs: (used.user + used.system) / calls }
}
await round(Math.min(1000, CALLS)) // warm-up: JIT, caches
const results = []
for (let r = 0; r < ROUNDS; r++) results.push(await round(CALLS))
await close()
const cpu = results.map((r) => r.cpuUs).sort((a, b) => a - b)
console.log(`${RAW ? 'raw evm.runCall' : 'Engine.call'}: balanceOf(new holder), ${CALLS} calls x ${ROUNDS}`)
console.log(`  CPU us/call per round: ${results.map((r) => r.cpuUs.toFixed(1)).join(' / ')} (median ${cpu[cpu.length >> 1]!.toFixed(1)}, min ${cpu[0]!.toFixed(1)})`)
console.log(`  wall us/call per round: ${results.map((r) => r.wallUs.toFixed(1)).join(' / ')}`)
