import fc from 'fast-check'
import { ACTORS } from './actors.js'
import { type Chunk, type Item, assemble } from './assemble.js'
import { chunk, storeBytes, terminator } from './chunk.js'
import { callValue, op, word } from './operands.js'

/** The code size limit of EIP-170: one byte more is a failed deployment. */
const TOO_LARGE = 0x6001

/** Code of up to `maxChunks` chunks and an optional last terminator; with `creates`, CREATE and CREATE2 of generated init code too. */
export function program(maxChunks: number, creates = false): fc.Arbitrary<Uint8Array> {
  const chunks = fc.array(chunk(creates ? createChunk : undefined), { maxLength: maxChunks })
  return fc.tuple(chunks, fc.option(terminator, { freq: 3 })).map(([body, end]) => assemble(end === null ? body : [...body, end]))
}

/**
 * Init code: a generated body, then a tail that deploys generated runtime code (copied from the init
 * code's end), or code starting with 0xEF (EIP-3541), or code over the size limit, or nothing.
 */
export const initCode: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.array(chunk(), { maxLength: 6 }), program(8), fc.constantFrom('runtime', 'runtime', 'runtime', 'ef', 'tooLarge', 'stop'))
  .map(([chunks, runtime, deploy]) => {
    const body = assemble(chunks)
    if (deploy === 'stop') return Uint8Array.of(...body, 0x00)
    if (deploy === 'tooLarge') return Uint8Array.of(...body, 0x61, TOO_LARGE >> 8, TOO_LARGE & 0xff, 0x5f, 0xf3)
    const code = deploy === 'ef' ? Uint8Array.of(0xef, ...runtime) : runtime
    const start = body.length + 13
    const len = [0x61, code.length >> 8, code.length & 0xff]
    // CODECOPY(0, start, len), RETURN(0, len): 13 bytes, PUSH2s of fixed width so `start` is known.
    return Uint8Array.of(...body, ...len, 0x61, start >> 8, start & 0xff, 0x5f, 0x39, ...len, 0x5f, 0xf3, ...code)
  })

/** The created address is on the stack after CREATE: call it with no input, all gas (DUP6 reaches it under five pushes). */
const CALL_CREATED: Item[] = [{ push: 0n }, { push: 0n }, { push: 0n }, { push: 0n }, { push: 0n }, 0x85, 0x5a, 0xf1]

const createChunk: fc.Arbitrary<Chunk> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.tuple(initCode, fc.boolean(), callValue, word, fc.boolean()).map(([code, create2, value, salt, callIt]): Chunk => {
      const size = { push: BigInt(code.length) }
      const create = create2 ? op(0xf5, value, { push: 0n }, size, salt) : op(0xf0, value, { push: 0n }, size)
      return [...storeBytes(code), ...create, ...(callIt ? CALL_CREATED : [])]
    }),
  },
  // Another contract's code run as init code: what it returns is deployed.
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...ACTORS.contracts), fc.bigInt(0n, 400n), fc.boolean(), word).map(([from, size, create2, salt]): Chunk => {
      const copy = op(0x3c, { push: BigInt(`0x${from}`) }, { push: 0n }, { push: 0n }, { push: size })
      return [...copy, ...(create2 ? op(0xf5, { push: 0n }, { push: 0n }, { push: size }, salt) : op(0xf0, { push: 0n }, { push: 0n }, { push: size }))]
    }),
  },
)
