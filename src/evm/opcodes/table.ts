import type { EvmGas } from '../gasParams.js'
import { type Op, fail } from '../frame.js'
import { arithOps } from './arith.js'
import { envOps } from './env.js'
import { memOps } from './memOps.js'
import { storageOps } from './storage.js'
import { systemOps } from './system.js'

const invalid: Op = (f) => fail(f, 'invalid opcode')

/**
 * The opcode table of a fork, indexed by byte; undefined when the fork has an opcode this
 * interpreter does not implement (or lacks one it does: then it is not the fork it was written for).
 */
export function opcodeTable(g: EvmGas): Op[] | undefined {
  const t: Op[] = []
  arithOps(t, g)
  envOps(t, g)
  memOps(t, g)
  storageOps(t, g)
  systemOps(t, g)
  const ops: Op[] = new Array<Op>(256)
  for (let b = 0; b < 256; b++) {
    const op = t[b]
    if ((op !== undefined) !== (g.valid[b] === 1)) return undefined
    ops[b] = op ?? invalid
  }
  return ops
}
