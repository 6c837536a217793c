import { getCreateAddress } from 'ethers'
import { describe, expect, it } from 'vitest'
import { bothEvms } from '../helpers/bothEvms.js'
import { EWOQ_ADDRESS } from '../helpers/testNode.js'
import { ewoq } from '../helpers/chain.js'

/**
 * An exceptional halt answers in geth's words (core/vm/errors.go, which libevm and so coreth keep),
 * from the node's interpreter (checked against ethereumjs by the oracle: the test default) and from
 * ethereumjs alone: in eth_call, eth_estimateGas, eth_createAccessList, eth_simulateV1 and the call
 * tracer. Each case is init code run by a creation (no `to`), so the bytes below are all that runs.
 */
const CASES: { name: string; code: string; error: string }[] = [
  { name: 'ADD on an empty stack', code: '0x01', error: 'stack underflow (0 <=> 2)' },
  { name: 'MSTORE with one item', code: '0x600152', error: 'stack underflow (1 <=> 2)' },
  { name: 'DUP3 with two items', code: '0x6001600182', error: 'stack underflow (2 <=> 3)' },
  { name: 'SWAP1 with one item', code: '0x600190', error: 'stack underflow (1 <=> 2)' },
  { name: 'CALL with six items', code: '0x600060006000600060006000f1', error: 'stack underflow (6 <=> 7)' },
  { name: 'RETURNDATACOPY with two items', code: '0x600060003e', error: 'stack underflow (2 <=> 3)' },
  { name: 'the designated INVALID (0xfe)', code: '0xfe', error: 'invalid opcode: INVALID' },
  { name: 'an undefined opcode (0x0c)', code: '0x0c', error: 'invalid opcode: opcode 0xc not defined' },
  { name: 'an undefined opcode after pushes (0xef)', code: '0x60016002ef', error: 'invalid opcode: opcode 0xef not defined' },
  { name: 'a jump to a non-JUMPDEST', code: '0x600256', error: 'invalid jump destination' },
  { name: 'a conditional jump to a non-JUMPDEST', code: '0x6001600357', error: 'invalid jump destination' },
  { name: 'RETURNDATACOPY past the (empty) return data', code: '0x6001600060003e', error: 'return data out of bounds' },
  { name: 'a stack of 1025 (PUSH0 x 1025)', code: `0x${'5f'.repeat(1025)}`, error: 'stack limit reached 1024 (1023)' },
  { name: 'DUP1 on a full stack', code: `0x${'5f'.repeat(1024)}80`, error: 'stack limit reached 1024 (1023)' },
]

describe("EVM errors in geth's words", () => {
  const { nodes, interpreter } = bothEvms()

  for (const c of CASES) {
    it(`${c.name}: ${c.error}`, async () => {
      for (const [which, n] of nodes()) {
        const call = { from: EWOQ_ADDRESS, data: c.code, gas: '0x100000' }
        const answered = await n.rpc('eth_call', [call, 'latest'])
        expect(answered.error, `${which} eth_call`).toEqual({ code: -32000, message: c.error })
        const estimate = await n.rpc('eth_estimateGas', [call])
        expect(estimate.error, `${which} eth_estimateGas`).toEqual({ code: -32000, message: c.error })
        const list = await n.call('eth_createAccessList', [call, 'latest'])
        expect(list.error, `${which} eth_createAccessList`).toBe(c.error)
        const [sim] = await n.call('eth_simulateV1', [{ blockStateCalls: [{ calls: [call] }] }, 'latest'])
        expect(sim.calls[0].status, `${which} eth_simulateV1`).toBe('0x0')
        expect(sim.calls[0].error, `${which} eth_simulateV1`).toMatchObject({ code: -32015, message: c.error })
        const trace = await n.call('debug_traceCall', [call, 'latest', { tracer: 'callTracer' }])
        expect(trace.error, `${which} callTracer`).toBe(c.error)
      }
      expect(interpreter().node.engine.own!.counts).toMatchObject({ differing: 0, failed: 0 })
    })
  }

  // A creation's end: the code it returns is refused (geth's create: ErrCodeStoreOutOfGas, ErrMaxCodeSizeExceeded, ErrInvalidCode).
  const DEPOSITS: { name: string; code: string; gas: string; error: string }[] = [
    { name: '100 bytes of code without the gas to store them', code: '0x60646000f3', gas: '0xea60', error: 'contract creation code storage out of gas' },
    { name: '24,577 bytes of code', code: '0x6160016000f3', gas: '0x1000000', error: 'max code size exceeded' },
    { name: 'code that begins with 0xef', code: '0x60ef60005360016000f3', gas: '0x100000', error: 'invalid code: must not begin with 0xef' },
  ]
  for (const c of DEPOSITS) {
    it(`${c.name}: ${c.error}`, async () => {
      for (const [which, n] of nodes()) {
        const call = { from: EWOQ_ADDRESS, data: c.code, gas: c.gas }
        expect((await n.rpc('eth_call', [call, 'latest'])).error, `${which} eth_call`).toEqual({ code: -32000, message: c.error })
        expect((await n.call('eth_createAccessList', [call, 'latest'])).error, `${which} eth_createAccessList`).toBe(c.error)
        const trace = await n.call('debug_traceCall', [call, 'latest', { tracer: 'callTracer' }])
        expect(trace.error, `${which} callTracer`).toBe(c.error)
      }
      expect(interpreter().node.engine.own!.counts).toMatchObject({ differing: 0, failed: 0 })
    })
  }

  it("a creation at an address that has code: 'contract address collision'; a STATICCALL into an SSTORE: 'write protection' in the call tracer", async () => {
    // ewoq's next creation lands where a state override put code.
    const writer = '0x00000000000000000000000000000000000c0de1'
    for (const [which, n] of nodes()) {
      const nonce = Number(await n.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest']))
      const at = getCreateAddress({ from: EWOQ_ADDRESS, nonce }).toLowerCase()
      const call = { from: EWOQ_ADDRESS, data: '0x00' }
      const override = { [at]: { code: '0x00' } }
      expect((await n.rpc('eth_call', [call, 'latest', override])).error, which).toEqual({ code: -32000, message: 'contract address collision' })
      expect((await n.rpc('eth_estimateGas', [call, 'latest', override])).error, which).toEqual({ code: -32000, message: 'contract address collision' })
      // Init code: STATICCALL(GAS, writer, 0, 0, 0, 0), STOP; the writer's code: PUSH1 1 PUSH1 1 SSTORE STOP.
      const trace = await n.call('debug_traceCall', [
        { data: `0x5f5f5f5f73${writer.slice(2)}5afa00`, gas: '0x100000' },
        'latest',
        { tracer: 'callTracer', stateOverrides: { [writer]: { code: '0x600160015500' } } },
      ])
      expect(trace.error, which).toBeUndefined()
      expect(trace.calls, which).toMatchObject([{ type: 'STATICCALL', to: writer, error: 'write protection' }])
    }
  })

  it("a fee cap under the block's base fee: geth's words with the sender and both figures, from eth_call and eth_estimateGas", async () => {
    for (const [which, n] of nodes()) {
      // The genesis block's base fee: 225 gwei (config/local-genesis.json).
      const genesis = await n.call('eth_getBlockByNumber', ['0x0', false])
      const call = { from: EWOQ_ADDRESS, to: '0x1111111111111111111111111111111111111111', maxFeePerGas: '0x1', gas: '0x100000' }
      const reason = `max fee per gas less than block base fee: address ${EWOQ_ADDRESS}, maxFeePerGas: 1, baseFee: ${BigInt(genesis.baseFeePerGas)}`
      expect((await n.rpc('eth_call', [call, '0x0'])).error, which).toEqual({ code: -32000, message: `err: ${reason} (supplied gas 1048576)` })
      expect((await n.rpc('eth_estimateGas', [call, '0x0'])).error, which).toEqual({ code: -32000, message: reason })
    }
  })

  it("a tip above the fee cap: coreth's preCheck words (ErrTipAboveFeeCap), not a parameter error", async () => {
    for (const [which, n] of nodes()) {
      const call = { from: EWOQ_ADDRESS, to: '0x1111111111111111111111111111111111111111', maxFeePerGas: '0x5', maxPriorityFeePerGas: '0x6', gas: '0x100000' }
      const reason = `max priority fee per gas higher than max fee per gas: address ${EWOQ_ADDRESS}, maxPriorityFeePerGas: 6, maxFeePerGas: 5`
      expect((await n.rpc('eth_call', [call, 'latest'])).error, which).toEqual({ code: -32000, message: `err: ${reason} (supplied gas 1048576)` })
      expect((await n.rpc('eth_estimateGas', [call])).error, which).toEqual({ code: -32000, message: reason })
    }
  })

  it('a creation with init code over 49,152 bytes: coreth\'s "max initcode size exceeded" before it runs, not an internal error', async () => {
    const data = `0x${'00'.repeat(49_153)}`
    for (const [which, n] of nodes()) {
      const answered = await n.rpc('eth_call', [{ from: EWOQ_ADDRESS, data, gas: '0x1000000' }, 'latest'])
      expect(answered.error, which).toEqual({ code: -32000, message: 'err: max initcode size exceeded: code size 49153 limit 49152 (supplied gas 16777216)' })
      const estimate = await n.rpc('eth_estimateGas', [{ from: EWOQ_ADDRESS, data }])
      expect(estimate.error, which).toEqual({ code: -32000, message: 'max initcode size exceeded: code size 49153 limit 49152' })
      // The pool refuses such a transaction in its own words (coreth core/txpool/validation.go).
      const nonce = Number(await n.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'pending']))
      const raw = await ewoq.signTransaction({ type: 2, chainId: 43112n, nonce, gasLimit: 15_000_000n, maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 1n, data })
      expect((await n.rpc('eth_sendRawTransaction', [raw])).error, which).toMatchObject({ message: 'max initcode size exceeded: code size 49153, limit 49152' })
      // At the limit it runs (49,152 STOPs: an empty contract).
      expect(await n.call('eth_call', [{ from: EWOQ_ADDRESS, data: `0x${'00'.repeat(49_152)}` }, 'latest']), which).toBe('0x')
    }
  })

  describe('the KZG point-evaluation precompile (0x0a)', () => {
    // EIP-4844's point-evaluation vector (versioned hash, z, y, commitment, proof), the one geth's
    // precompile tests use; it verifies under the Ethereum KZG ceremony's setup.
    const VALID =
      '0x01e798154708fe7789429634053cbf9f99b619f9f084048927333fce637f549b564c0a11a0f704f4fc3e8acfe0f8245f0ad1347b378fbf96e206da11a5d3630624d25032e67a7e6a4910df5834b8fe70e6bcfeeac0352434196bdf4b2485d5a18f59a8d2a1a625a17f3fea0fe5eb8c896db3764f3185481bc22f91b4aaffcca25f26936857bc3a7c2539ea8ec3a952b7873033e038326e87ed3e1276fd140253fa08e9fc25fb2d9a98527fc22a2c9612fbeafdad446cbc7bcdbdcd780af2c16a'
    // FIELD_ELEMENTS_PER_BLOB and BLS_MODULUS, 32 bytes each.
    const RETURNED = '0x000000000000000000000000000000000000000000000000000000000000100073eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001'
    const at = (data: string) => ({ from: EWOQ_ADDRESS, to: '0x000000000000000000000000000000000000000a', data, gas: '0x100000' })
    // y (bytes 64..96) changed: the proof no longer opens the commitment there.
    const wrongY = `${VALID.slice(0, 2 + 64 * 2)}${'00'.repeat(32)}${VALID.slice(2 + 96 * 2)}`
    // The versioned hash's last byte changed.
    const wrongHash = `${VALID.slice(0, 2 + 31 * 2)}00${VALID.slice(2 + 32 * 2)}`
    // z at the field's modulus: not a canonical scalar.
    const badZ = `${VALID.slice(0, 2 + 32 * 2)}73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001${VALID.slice(2 + 64 * 2)}`

    it('verifies a valid proof (FIELD_ELEMENTS_PER_BLOB, BLS_MODULUS) for 50,000 gas, from both EVMs', async () => {
      for (const [which, n] of nodes()) {
        expect(await n.call('eth_call', [at(VALID), 'latest']), which).toBe(RETURNED)
        const calldata = [...Buffer.from(VALID.slice(2), 'hex')].reduce((sum, b) => sum + (b === 0 ? 4 : 16), 0)
        // 0x20000 gas: Helicon's minimum charge, half of it, stays under what the call uses.
        const list = await n.call('eth_createAccessList', [{ ...at(VALID), gas: '0x20000' }, 'latest'])
        expect(list, which).toEqual({ accessList: [], gasUsed: `0x${(21_000 + calldata + 50_000).toString(16)}` })
        const { gas: _gas, ...unlimited } = at(VALID)
        expect(BigInt(await n.call('eth_estimateGas', [unlimited])) >= BigInt(21_000 + calldata + 50_000), which).toBe(true)
      }
      expect(interpreter().node.engine.own!.counts).toMatchObject({ differing: 0, failed: 0 })
    })

    for (const [name, data, error] of [
      ['a wrong y', wrongY, "error verifying kzg proof: can't verify opening proof"],
      ['a versioned hash of another commitment', wrongHash, 'mismatched versioned hash'],
      ['191 bytes', VALID.slice(0, -2), 'invalid input length'],
      ['z past the field modulus', badZ, 'error verifying kzg proof'],
    ] as const) {
      it(`refuses ${name}: ${error}`, async () => {
        for (const [which, n] of nodes()) {
          expect((await n.rpc('eth_call', [at(data), 'latest'])).error, which).toEqual({ code: -32000, message: error })
        }
      })
    }
  })
})
