/**
 * State-test cases (StateTestCase.name: the test's name and its data/gas/value indexes) that an
 * engine runs differently from the fillers, each with the reason. `npm run suite:ethereum-tests`
 * reports them apart, and fails when one of them passes, so the lists never outlive their cause.
 */

/** ethereumjs's runTx: it runs every case of the subset as the fillers did. */
export const ETHEREUMJS_KNOWN_FAILURES: ReadonlyMap<string, string> = new Map([])

// runMessage counts gas in JavaScript numbers and refuses a message given more than 2^53 - 1 (a
// RangeError); a C-Chain block's gas limit keeps every real transaction far below that.
const GAS_OVER_2_53 = 'transaction gas above 2^53 - 1, which runMessage refuses (RangeError)'

/** The project's interpreter (src/evm/), run by src/evm/runTransaction.ts. */
export const INTERPRETER_KNOWN_FAILURES: ReadonlyMap<string, string> = new Map([
  ['Call10[d0g0v0]', GAS_OVER_2_53],
  ['HighGasLimit[d0g0v0]', GAS_OVER_2_53],
  ['OverflowGasRequire2[d0g0v0]', GAS_OVER_2_53],
])
