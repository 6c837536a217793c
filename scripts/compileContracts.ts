/**
 * Compiles test/fixtures/contracts/*.sol with solc-js into test/fixtures/contracts.json
 * (abi + bytecode), the artifacts the tests and the benchmark load. Run after changing a .sol:
 *   npm run build && node dist/scripts/compileContracts.js
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const require = createRequire(import.meta.url)
const solc = require('solc') as { compile(input: string): string; version(): string }
const dir = join(process.cwd(), 'test/fixtures/contracts')
const sources: Record<string, { content: string }> = {}
for (const file of readdirSync(dir).filter((f) => f.endsWith('.sol'))) sources[file] = { content: readFileSync(join(dir, file), 'utf8') }
const input = {
  language: 'Solidity',
  sources,
  settings: { evmVersion: 'cancun', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } } },
}
const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<string, Record<string, { abi: unknown; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>
}
const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
const artifacts: Record<string, { abi: unknown; bytecode: string; deployedBytecode: string }> = {}
for (const file of Object.values(output.contracts)) {
  for (const [name, c] of Object.entries(file)) artifacts[name] = { abi: c.abi, bytecode: '0x' + c.evm.bytecode.object, deployedBytecode: '0x' + c.evm.deployedBytecode.object }
}
writeFileSync(join(process.cwd(), 'test/fixtures/contracts.json'), JSON.stringify({ compiler: solc.version(), contracts: artifacts }, null, 1) + '\n')
console.log(`compiled ${Object.keys(artifacts).join(', ')} with solc ${solc.version()}`)
