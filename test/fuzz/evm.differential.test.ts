import fc from 'fast-check'
import { describe, it } from 'vitest'
import { chainCommon } from '../../src/engine/rules/chainCommon.js'
import { evmRules } from '../../src/evm/evmRules.js'
import { runMessage } from '../../src/evm/runMessage.js'
import { ethereumjsMessage } from '../helpers/ethereumjsMessage.js'
import { type EvmRunner, evmProperty } from './evm/evmProperty.js'

/*
 * The project's interpreter (src/evm/) against ethereumjs, the EVM the node ran before it, on
 * generated code, calldata, gas and pre-state (test/fuzz/evm/): every field of the result and every
 * effect on state must agree. A fixed seed by default; FUZZ_SEED and FUZZ_RUNS override it, and
 * `npm run fuzz:evm -- --minutes N` runs the same property for longer.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 0xe7f)
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000)

const common = chainCommon(43112n)
const rules = evmRules(common)
if (rules === undefined) throw new Error("evmRules has no rules for the C-Chain's Common")
const ours: EvmRunner = (state, host, msg) => runMessage(rules, state, host, msg)
const theirs: EvmRunner = (state, host, msg) => ethereumjsMessage(common, state, host, msg)

describe('the EVM interpreter against ethereumjs', () => {
  it(`answers ${RUNS} generated messages as ethereumjs does`, async () => {
    await fc.assert(evmProperty(ours, theirs), { seed: SEED, numRuns: RUNS })
  }, 120_000)
})
