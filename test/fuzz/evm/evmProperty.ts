import { bigIntToBytes } from '@ethereumjs/util'
import fc from 'fast-check'
import { compareResults, readPrior } from '../../../src/evm/compareResults.js'
import type { EvmHost, EvmMessage, EvmResult, EvmState } from '../../../src/evm/types.js'
import { keccak256 } from '../../../src/util/crypto.js'
import { MemoryState } from '../../helpers/memoryState.js'
import { type EvmCase, evmCase } from './evmCase.js'

/** One EVM's run of a message: the interpreter's runMessage, or ethereumjs through test/helpers/ethereumjsMessage.ts. */
export type EvmRunner = (state: EvmState, host: EvmHost, msg: EvmMessage) => Promise<EvmResult>

/** BLOCKHASH answers a hash of the number: any fixed function tells a wrong number from the right one. */
const HOST: EvmHost = { blockHash: async (n) => keccak256(bigIntToBytes(n)) }

/** The differences between `ours` and `theirs` on one case (a runner that throws is one). */
export async function caseDifferences(c: EvmCase, ours: EvmRunner, theirs: EvmRunner, ignore?: RegExp): Promise<string[]> {
  const state = new MemoryState(c.pre)
  const [a, b] = await Promise.all([settle(ours(state, HOST, c.message)), settle(theirs(state, HOST, c.message))])
  if (a instanceof Error || b instanceof Error) {
    if (a instanceof Error && b instanceof Error) return []
    return [`threw: ours ${a instanceof Error ? a.message : 'no'}, theirs ${b instanceof Error ? b.message : 'no'}`]
  }
  const found = compareResults(a, b, await readPrior(state, a, b))
  return ignore === undefined ? found : found.filter((line) => !ignore.test(line))
}

/**
 * The property: `ours` and `theirs` answer every generated case alike; a failure names the fields
 * (fast-check prints the case). `ignore` drops the difference lines it matches: a known difference
 * set aside while others are looked for.
 */
export function evmProperty(ours: EvmRunner, theirs: EvmRunner, ignore?: RegExp): fc.IAsyncProperty<[EvmCase]> {
  return fc.asyncProperty(evmCase, async (c) => {
    const found = await caseDifferences(c, ours, theirs, ignore)
    if (found.length > 0) throw new Error(found.join('\n'))
  })
}

async function settle(run: Promise<EvmResult>): Promise<EvmResult | Error> {
  try {
    return await run
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err))
  }
}
