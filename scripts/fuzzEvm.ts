/**
 * The differential fuzzer of test/fuzz/evm.differential.test.ts for longer: the project's interpreter
 * against ethereumjs on generated messages, batch after batch with new seeds, for `--minutes` minutes.
 * Each failing batch's shrunk counterexample (its differences, then the case) is written under
 * test-output/fuzz-evm/ (git-ignored); a summary line ends the run. Exits 1 when any was found.
 *
 *   npm run fuzz:evm -- --minutes 10 [--seed 1234] [--ignore '^createdAddress|^logs']
 *
 * `--ignore` (a regular expression) sets aside the difference lines it matches, so a known
 * difference that every batch meets first does not hide the others.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { chainCommon } from '../src/engine/rules/chainCommon.js'
import { evmRules } from '../src/evm/evmRules.js'
import { runMessage } from '../src/evm/runMessage.js'
import { ethereumjsMessage } from '../test/helpers/ethereumjsMessage.js'
import { describeCase } from '../test/fuzz/evm/describeCase.js'
import { type EvmRunner, caseDifferences, evmProperty } from '../test/fuzz/evm/evmProperty.js'

const args = process.argv.slice(2)
const opt = (name: string, def: number) => {
  const i = args.indexOf(name)
  return i >= 0 ? Number(args[i + 1]) : def
}
const MINUTES = opt('--minutes', 1)
const FIRST_SEED = opt('--seed', Date.now() % 0x7fffffff)
const ignoreAt = args.indexOf('--ignore')
const IGNORE = ignoreAt >= 0 ? new RegExp(args[ignoreAt + 1]!) : undefined
/** Cases a batch runs before the next seed: small enough that the deadline is kept within seconds. */
const BATCH = 200
const OUT = join(process.cwd(), 'test-output', 'fuzz-evm')

const common = chainCommon(43112n)
const rules = evmRules(common)
if (rules === undefined) throw new Error("evmRules has no rules for the C-Chain's Common")
const ours: EvmRunner = (state, host, msg) => runMessage(rules, state, host, msg)
const theirs: EvmRunner = (state, host, msg) => ethereumjsMessage(common, state, host, msg)

const deadline = Date.now() + MINUTES * 60_000
let cases = 0
let seed = FIRST_SEED
const found: string[] = []
/** Counterexamples by their differences' fields, so one bug found again is not written again. */
const seen = new Set<string>()
while (Date.now() < deadline) {
  const details = await fc.check(evmProperty(ours, theirs, IGNORE), { seed, numRuns: BATCH })
  cases += details.numRuns
  if (details.failed && details.counterexample !== null) {
    const [c] = details.counterexample
    const differences = await caseDifferences(c, ours, theirs, IGNORE)
    const key = differences.map((line) => line.split(':')[0]!.replace(/[0-9a-f]{40}/g, 'ADDR')).join('|')
    if (!seen.has(key)) {
      seen.add(key)
      mkdirSync(OUT, { recursive: true })
      const file = join(OUT, `seed-${seed}.txt`)
      writeFileSync(file, `seed ${seed}, path ${details.counterexamplePath}\n${differences.join('\n')}\n${describeCase(c)}\n`)
      found.push(file)
      console.log(`difference (seed ${seed}): ${differences[0]} -> ${file}`)
    }
  }
  seed = (seed + 1) % 0x7fffffff
}
console.log(`fuzz:evm: ${cases} cases in ${MINUTES} min from seed ${FIRST_SEED}, ${found.length} distinct counterexample(s)${found.length > 0 ? ` in ${OUT}` : ''}`)
process.exitCode = found.length > 0 ? 1 : 0
