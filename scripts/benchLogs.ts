/**
 * eth_getLogs over a long chain: builds N empty blocks (default 100,000) in a temporary data dir,
 * then times a whole-chain eth_getLogs with no match, cold (fresh process state: blooms read from
 * LevelDB) and warm. `npm run build && node dist/scripts/benchLogs.js [--blocks N] [--data-dir D]`
 * (a kept --data-dir skips building on the next run, so the cold figure is a real restart).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { parseNodeConfig } from '../src/config.js'
import { createNode } from '../src/node.js'

const args = process.argv.slice(2)
const arg = (name: string) => {
  const i = args.indexOf(name)
  return i === -1 ? undefined : args[i + 1]
}
const blocks = BigInt(arg('--blocks') ?? '100000')
const keep = arg('--data-dir')
const dataDir = keep ?? mkdtempSync(join(tmpdir(), 'cchain-benchlogs-'))

const node = await createNode(parseNodeConfig({ httpPort: 0, dataDir, logLevel: 'silent', chain: { 'api-max-blocks-per-request': 0 } }), { log: pino({ level: 'silent' }) })
const e = node.engine
const t0 = performance.now()
const built = e.head.header.number
while (e.head.header.number < blocks) await e.buildBlock()
if (e.head.header.number > built) console.log(`built ${e.head.header.number - built} blocks in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
const query = { fromBlock: 0n, toBlock: 'latest' as const, criteria: { addresses: [new Uint8Array(20).fill(7)], topics: [] } }
for (const label of ['first query', 'second query', 'third query']) {
  const t = performance.now()
  const logs = await e.getLogs(query)
  console.log(`eth_getLogs 0..${e.head.header.number} (${label}): ${logs.length} logs in ${(performance.now() - t).toFixed(1)} ms`)
}
await node.close()
if (keep === undefined) rmSync(dataDir, { recursive: true, force: true })
