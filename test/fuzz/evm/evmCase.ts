import { hexToBytes, setLengthLeft } from '@ethereumjs/util'
import fc from 'fast-check'
import type { EvmBlock, EvmMessage } from '../../../src/evm/types.js'
import type { MemoryAccount } from '../../helpers/memoryState.js'
import { ACTORS } from './actors.js'
import { describeCase } from './describeCase.js'
import { initCode, program } from './program.js'

/** One differential case: a pre-state and a top-level message run on it. */
export interface EvmCase {
  /** address (lower-case hex without 0x) -> account */
  pre: Map<string, MemoryAccount>
  message: EvmMessage
}

const ETHER = 10n ** 18n
const bytes = (hex: string) => hexToBytes(`0x${hex}`)

const storage = fc
  .array(fc.tuple(fc.bigInt(0n, 4n), fc.oneof(fc.bigInt(1n, 5n), fc.bigInt(1n, (1n << 256n) - 1n))), { maxLength: 4 })
  .map((slots) => new Map(slots.map(([k, v]) => [k.toString(16).padStart(64, '0'), v])))

function contract(code: fc.Arbitrary<Uint8Array>): fc.Arbitrary<MemoryAccount> {
  return fc.record({
    balance: fc.constantFrom(0n, 1000n, ETHER),
    // 2^64 - 1: the nonce CREATE can no longer bump (EIP-2681).
    nonce: fc.constantFrom(1n, 1n, 1n, 0n, (1n << 64n) - 1n),
    code,
    storage,
  })
}

const pre: fc.Arbitrary<Map<string, MemoryAccount>> = fc
  .record({
    caller: fc.record({ balance: fc.constantFrom(0n, 10n ** 6n, ETHER, 1n << 128n), nonce: fc.constantFrom(0n, 1n, 7n), code: fc.constant(new Uint8Array(0)), storage: fc.constant(new Map()) }),
    a: contract(program(24, true)),
    b: fc.option(contract(program(16, true)), { freq: 6 }),
    c: fc.option(contract(program(12, true)), { freq: 4 }),
    holderNonce: fc.constantFrom(0n, 3n),
  })
  .map(({ caller, a, b, c, holderNonce }) => {
    const out = new Map<string, MemoryAccount>([
      [ACTORS.caller, caller],
      [ACTORS.contracts[0], a],
      [ACTORS.holder, { balance: ETHER, nonce: holderNonce, code: new Uint8Array(0), storage: new Map() }],
    ])
    if (b !== null) out.set(ACTORS.contracts[1], b)
    if (c !== null) out.set(ACTORS.contracts[2], c)
    return out
  })

const block: fc.Arbitrary<EvmBlock> = fc.record({
  number: fc.constant(1000n),
  timestamp: fc.constant(1_700_000_000n),
  coinbase: fc.constantFrom('00000000000000000000000000000000000000c0', ACTORS.contracts[0], ACTORS.nobody).map(bytes),
  gasLimit: fc.constant(15_000_000n),
  baseFee: fc.constantFrom(0n, 25_000_000_000n),
  // coreth's PREVRANDAO: the header's difficulty, 1 (src/engine/chain/envBlock.ts).
  prevRandao: fc.constant(setLengthLeft(Uint8Array.of(1), 32)),
  blobBaseFee: fc.constant(1n),
})

const to = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...ACTORS.contracts) },
  { weight: 1, arbitrary: fc.constantFrom(ACTORS.holder, ACTORS.nobody, ...ACTORS.precompiles) },
  { weight: 2, arbitrary: fc.constant(undefined) },
)

const calldata = fc.oneof(
  fc.uint8Array({ maxLength: 100 }),
  fc
    .tuple(fc.uint8Array({ minLength: 4, maxLength: 4 }), fc.array(fc.constantFrom(0n, 1n, 32n, (1n << 256n) - 1n), { maxLength: 3 }))
    .map(([selector, words]) => Uint8Array.of(...selector, ...words.flatMap((w) => [...setLengthLeft(hexToBytes(`0x${w.toString(16).padStart(2, '0')}`), 32)]))),
)

const gasLimit = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(0n, 1n, 100n, 2300n, 10_000n) },
  { weight: 10, arbitrary: fc.bigInt(20_000n, 300_000n) },
  { weight: 1, arbitrary: fc.constantFrom(1_000_000n, 3_000_000n) },
)

const message: fc.Arbitrary<EvmMessage> = fc
  .record({
    to,
    data: calldata,
    init: initCode,
    value: fc.oneof({ weight: 6, arbitrary: fc.constant(0n) }, { weight: 2, arbitrary: fc.bigInt(1n, 1000n) }, { weight: 1, arbitrary: fc.constant(ETHER) }),
    gasLimit,
    gasPrice: fc.constantFrom(0n, 0n, 25_000_000_000n),
    block,
    otherOrigin: fc.nat(7).map((n) => n === 0),
    warmSlot: fc.option(fc.bigInt(0n, 3n), { freq: 8 }),
    blobHash: fc.option(fc.uint8Array({ minLength: 31, maxLength: 31 }), { freq: 8 }),
    bumpNonce: fc.boolean(),
  })
  .map(({ to, data, init, value, gasLimit, gasPrice, block, otherOrigin, warmSlot, blobHash, bumpNonce }): EvmMessage => {
    const msg: EvmMessage = { caller: bytes(ACTORS.caller), to: to === undefined ? undefined : bytes(to), value, data: to === undefined ? init : data, gasLimit, gasPrice, block }
    if (otherOrigin) msg.origin = bytes(ACTORS.holder)
    if (warmSlot !== null) msg.accessList = [[bytes(ACTORS.contracts[0]), [setLengthLeft(Uint8Array.of(Number(warmSlot)), 32)]]]
    if (blobHash !== null) msg.blobHashes = [Uint8Array.of(1, ...blobHash)]
    // eth_call leaves a call's nonce alone; a creation bumps it (src/engine/exec/directCall.ts); now and then a call bumps it too.
    msg.skipNonceIncrement = to !== undefined && !bumpNonce
    return msg
  })

/** The engine checks the sender can pay a message's value before it runs one: the value is capped at the caller's balance. */
export const evmCase: fc.Arbitrary<EvmCase> = fc.record({ pre, message }).map(({ pre, message }) => {
  const balance = pre.get(ACTORS.caller)!.balance
  const c: EvmCase = { pre, message: message.value > balance ? { ...message, value: balance } : message }
  // fast-check prints a counterexample with this: code and data as hex, not arrays of numbers.
  return Object.assign(c, { [fc.toStringMethod]: () => describeCase(c) })
})
