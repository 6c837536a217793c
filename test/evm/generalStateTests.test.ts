import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { type StateTestCase, type StateTestOutcome, fixtureFiles, loadCases, mismatch, runOnEthereumjs } from '../helpers/stateTest.js'
import { runOnInterpreter } from '../helpers/stateTestEvm.js'
import { ETHEREUMJS_KNOWN_FAILURES, INTERPRETER_KNOWN_FAILURES } from './knownFailures.js'

// ethereum/tests GeneralStateTests, a vendored subset (test/fixtures/ethereum-tests/README.md names
// the source, commit and files), each Cancun post entry run on ethereumjs's runTx and on the project's
// interpreter (src/evm/runTransaction.ts): the state root and the logs' hash must be the fillers'.

const DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/ethereum-tests')
// Collected eagerly: a missing folder or file fails the suite instead of leaving it empty.
const FILES = fixtureFiles(DIR).map((path) => ({ path, cases: loadCases(DIR, path) }))

/** The cases of `cases` that do not go as `known` says: unexpected mismatches, and known failures that pass. */
async function surprises(cases: StateTestCase[], run: (c: StateTestCase) => Promise<StateTestOutcome>, known: ReadonlyMap<string, string>): Promise<string[]> {
  const out: string[] = []
  for (const c of cases) {
    const problem = await run(c).then(
      (outcome) => mismatch(c, outcome),
      (e: Error) => `threw ${e.name}: ${e.message}`,
    )
    const reason = known.get(c.name)
    if (problem !== undefined && reason === undefined) out.push(`${c.name}: ${problem}`)
    if (problem === undefined && reason !== undefined) out.push(`${c.name}: passes, but is listed as a known failure (${reason})`)
  }
  return out
}

describe('GeneralStateTests (Cancun)', () => {
  it('has the vendored fixtures', () => {
    expect(FILES.length).toBeGreaterThan(0)
    const names = new Set(FILES.flatMap((f) => f.cases.map((c) => c.name)))
    for (const name of [...ETHEREUMJS_KNOWN_FAILURES.keys(), ...INTERPRETER_KNOWN_FAILURES.keys()]) expect(names, `known failure ${name} is in no fixture`).toContain(name)
  })

  for (const { path, cases } of FILES) {
    const file = cases[0]?.file ?? path
    it(`${file} on ethereumjs (${cases.length} cases)`, async () => {
      expect(await surprises(cases, runOnEthereumjs, ETHEREUMJS_KNOWN_FAILURES)).toEqual([])
    })
    it(`${file} on the interpreter (${cases.length} cases)`, async () => {
      expect(await surprises(cases, runOnInterpreter, INTERPRETER_KNOWN_FAILURES)).toEqual([])
    })
  }
})
