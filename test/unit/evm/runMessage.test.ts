import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { type Case, type PreAccount, addr, asm, expectSame, runOurs } from '../../helpers/evmDiff.js'

/*
 * runMessage against ethereumjs 10's runCall, field for field, over hand-written bytecode: each
 * opcode family, every kind of call, creations, reverts, out of gas, SSTORE's gas cases, transient
 * storage, MCOPY, SELFDESTRUCT, the precompiles and logs.
 */

const ALICE = hexToBytes(addr(0xa11ce) as `0x${string}`)
const C = addr(0xc0de)
const D = addr(0xd00d)
const E = addr(0xe0e0)

function call(code: string, opts: { data?: string; value?: bigint; gas?: bigint; pre?: Record<string, PreAccount>; storage?: Record<string, bigint> } = {}): Case {
  return {
    pre: { [bytesToHex(ALICE)]: { balance: 10n ** 20n }, [C]: { code: asm(code), balance: 1000n, storage: opts.storage }, ...opts.pre },
    msg: {
      caller: ALICE,
      to: hexToBytes(C as `0x${string}`),
      data: opts.data === undefined ? new Uint8Array(0) : hexToBytes(opts.data as `0x${string}`),
      value: opts.value ?? 0n,
      gasLimit: opts.gas ?? 1_000_000n,
      skipNonceIncrement: true,
    },
  }
}

/** Returns the top of the stack as a 32-byte word. */
const ret = 'PUSH0 MSTORE PUSH1 32 PUSH0 RETURN'

const arith: [string, string][] = [
  ['add wraps', 'PUSH1 1 PUSH0 NOT ADD'],
  ['mul', 'PUSH32 0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff01 PUSH1 3 MUL'],
  ['sub under', 'PUSH1 5 PUSH1 3 SUB'],
  ['div', 'PUSH1 3 PUSH1 100 DIV'],
  ['div by 0', 'PUSH0 PUSH1 100 DIV'],
  ['sdiv', 'PUSH1 3 PUSH1 100 PUSH0 SUB SDIV'],
  ['sdiv min/-1', 'PUSH1 1 PUSH0 SUB PUSH1 1 PUSH1 255 SHL SDIV'],
  ['mod', 'PUSH1 7 PUSH1 100 MOD'],
  ['smod', 'PUSH1 7 PUSH1 100 PUSH0 SUB SMOD'],
  ['addmod', 'PUSH1 7 PUSH0 NOT PUSH0 NOT ADDMOD'],
  ['mulmod', 'PUSH1 7 PUSH0 NOT PUSH0 NOT MULMOD'],
  ['exp', 'PUSH1 70 PUSH1 3 EXP'],
  ['exp big', 'PUSH32 0x0102030405060708091011121314151617181920212223242526272829303132 PUSH1 7 EXP'],
  ['signextend', 'PUSH1 0xf0 PUSH0 SIGNEXTEND'],
  ['signextend pos', 'PUSH1 0x70 PUSH0 SIGNEXTEND'],
  ['lt gt', 'PUSH1 2 PUSH1 1 LT PUSH1 2 PUSH1 1 GT ADD'],
  ['slt sgt', 'PUSH1 2 PUSH0 NOT SLT PUSH1 2 PUSH0 NOT SGT ADD'],
  ['eq iszero', 'PUSH1 2 PUSH1 2 EQ ISZERO'],
  ['and or xor not', 'PUSH1 0x0f PUSH1 0xff AND PUSH1 0x30 OR PUSH1 0xff XOR NOT'],
  ['byte', 'PUSH32 0x0102030405060708091011121314151617181920212223242526272829303132 PUSH1 3 BYTE'],
  ['byte 32', 'PUSH1 0xff PUSH1 32 BYTE'],
  ['shl shr', 'PUSH1 1 PUSH1 200 SHL PUSH1 100 SHR'],
  ['sar neg', 'PUSH0 NOT PUSH1 4 SHL PUSH1 2 SAR'],
  ['sar 256', 'PUSH0 NOT PUSH2 256 SAR'],
  ['keccak', 'PUSH1 0x2a PUSH0 MSTORE PUSH1 32 PUSH0 KECCAK256'],
  [
    'env',
    'ADDRESS CALLER ORIGIN CALLVALUE CALLDATASIZE CODESIZE GASPRICE COINBASE TIMESTAMP NUMBER PREVRANDAO GASLIMIT CHAINID SELFBALANCE BASEFEE BLOBBASEFEE PUSH0 BLOBHASH XOR XOR XOR XOR XOR XOR XOR XOR XOR XOR XOR XOR XOR XOR XOR XOR XOR',
  ],
  ['calldataload', 'PUSH1 4 CALLDATALOAD PUSH1 100 CALLDATALOAD ADD'],
  ['pc msize gas', 'PUSH1 64 MLOAD POP PC MSIZE ADD GAS ADD'],
  ['blockhash', 'PUSH2 999 BLOCKHASH PUSH2 700 BLOCKHASH PUSH2 1000 BLOCKHASH XOR XOR'],
  ['balance', `PUSH20 ${C} BALANCE PUSH20 ${bytesToHex(ALICE)} BALANCE PUSH1 9 BALANCE ADD ADD`],
  ['extcode', `PUSH20 ${D} EXTCODESIZE PUSH20 ${D} EXTCODEHASH PUSH1 5 EXTCODEHASH PUSH20 ${E} EXTCODEHASH XOR XOR XOR`],
  ['tstore tload', 'PUSH1 7 PUSH1 1 TSTORE PUSH1 1 TLOAD PUSH1 2 TLOAD ADD'],
]

describe('runMessage (against ethereumjs runCall)', () => {
  for (const [name, code] of arith) {
    it(`computes ${name}`, async () => {
      await expectSame(call(`${code} ${ret}`, { data: '0x11223344556677', value: 5n, pre: { [D]: { code: asm('PUSH1 1') }, [E]: { balance: 1n } } }))
    })
  }

  it('copies: calldatacopy, codecopy, extcodecopy, returndatacopy, mcopy', async () => {
    const code = `PUSH1 40 PUSH1 2 PUSH1 8 CALLDATACOPY PUSH1 20 PUSH1 3 PUSH1 60 CODECOPY PUSH1 50 PUSH1 1 PUSH1 100 PUSH20 ${D} EXTCODECOPY PUSH1 30 PUSH1 4 PUSH1 2 MCOPY PUSH2 200 PUSH0 RETURN`
    await expectSame(call(code, { data: '0x0102030405060708090a', pre: { [D]: { code: asm('PUSH1 1 PUSH1 2') } } }))
  })

  it('fails: stack underflow, invalid opcode, invalid jump, out of gas, overflow, returndatacopy out of range', async () => {
    await expectSame(call('ADD'))
    await expectSame(call('PUSH1 1 MSTORE'))
    await expectSame(call('INVALID'))
    await expectSame(call('raw:0c'))
    await expectSame(call('PUSH1 3 JUMP JUMPDEST'))
    await expectSame(call('PUSH1 4 JUMP PUSH1 0x5b'))
    await expectSame(call('PUSH1 4 PUSH1 1 JUMPI STOP JUMPDEST PUSH1 1 PUSH1 0 SSTORE'))
    await expectSame(call('JUMPDEST PUSH0 PUSH0 JUMP'))
    await expectSame(call('PUSH4 0xffffffff MLOAD'))
    await expectSame(call('PUSH1 1 PUSH0 PUSH0 RETURNDATACOPY'))
    await expectSame(call(`${'PUSH0 '.repeat(1025)}`))
    await expectSame(call('PUSH1 1 PUSH0 SSTORE', { gas: 2300n }))
    await expectSame(call('PUSH1 1 PUSH0 SSTORE', { gas: 22_000n }))
  })

  it('reverts with data, and keeps nothing', async () => {
    await expectSame(call('PUSH1 1 PUSH0 SSTORE PUSH1 9 PUSH0 PUSH0 LOG1 PUSH1 0xaa PUSH0 MSTORE8 PUSH1 3 PUSH0 REVERT'))
  })

  it('prices SSTORE cases and refunds (EIP-2200, 2929, 3529)', async () => {
    const storage = { '0x01': 5n, '0x02': 6n }
    const cases = [
      'PUSH1 1 PUSH1 1 SSTORE', // dirty from clean nonzero
      'PUSH0 PUSH1 1 SSTORE', // clear: refund
      'PUSH0 PUSH1 1 SSTORE PUSH1 5 PUSH1 1 SSTORE', // clear then restore
      'PUSH1 7 PUSH1 3 SSTORE PUSH0 PUSH1 3 SSTORE', // set then reset to 0
      'PUSH1 7 PUSH1 1 SSTORE PUSH0 PUSH1 1 SSTORE PUSH1 8 PUSH1 1 SSTORE', // subRefund path
      'PUSH1 5 PUSH1 1 SSTORE', // noop cold
      'PUSH1 1 SLOAD POP PUSH1 5 PUSH1 1 SSTORE', // noop warm
      'PUSH1 2 SLOAD PUSH1 2 SLOAD ADD PUSH1 9 SLOAD ADD',
    ]
    for (const code of cases) await expectSame(call(code, { storage }))
  })

  it('warms the access list', async () => {
    const c = call('PUSH1 1 SLOAD PUSH1 2 SLOAD ADD PUSH20 0x00000000000000000000000000000000000d00d BALANCE ADD PUSH0 MSTORE PUSH1 32 PUSH0 RETURN', { storage: { '0x01': 3n } })
    c.msg.accessList = [
      [hexToBytes(C as `0x${string}`), [hexToBytes(`0x${'00'.repeat(31)}01`)]],
      [hexToBytes(D as `0x${string}`), []],
    ]
    await expectSame(c)
  })

  it('calls of each kind, with value, to precompiles and to nothing', async () => {
    const callee = asm('CALLER CALLVALUE ADDRESS PUSH1 1 SLOAD PUSH1 42 PUSH1 1 SSTORE XOR XOR XOR PUSH0 MSTORE PUSH1 1 PUSH1 2 PUSH1 3 LOG2 PUSH1 32 PUSH0 RETURN')
    const pre = { [D]: { code: callee, storage: { '0x01': 1n } } }
    for (const op of ['CALL', 'CALLCODE']) {
      await expectSame(call(`PUSH1 32 PUSH0 PUSH1 4 PUSH0 PUSH1 7 PUSH20 ${D} PUSH3 100000 ${op} PUSH0 MLOAD ADD ${ret}`, { pre }))
    }
    for (const op of ['DELEGATECALL', 'STATICCALL']) {
      await expectSame(call(`PUSH1 32 PUSH0 PUSH1 4 PUSH0 PUSH20 ${D} PUSH3 100000 ${op} PUSH0 MLOAD ADD RETURNDATASIZE ADD ${ret}`, { pre, value: 3n }))
    }
    await expectSame(call(`PUSH0 PUSH0 PUSH0 PUSH0 PUSH1 1 PUSH20 ${E} GAS CALL ${ret}`))
    await expectSame(call(`PUSH0 PUSH0 PUSH0 PUSH0 PUSH2 5000 PUSH20 ${E} GAS CALL ${ret}`))
    await expectSame(call(`PUSH0 PUSH0 PUSH0 PUSH0 PUSH1 1 PUSH20 ${D} PUSH1 100 CALL ${ret}`, { pre }))
    await expectSame(call(`PUSH0 PUSH0 PUSH0 PUSH0 PUSH1 1 PUSH20 ${D} PUSH1 100 CALLCODE ${ret}`, { pre }))
  })

  it('precompiles 1..10 and 0x100', async () => {
    const input = '0x' + '01'.repeat(32) + '00'.repeat(31) + '1b' + '02'.repeat(64) + '03'.repeat(32)
    for (const p of [1, 2, 3, 4, 5, 6, 7, 8, 9, 0x100]) {
      await expectSame(
        call(`CALLDATASIZE PUSH0 PUSH0 CALLDATACOPY PUSH1 64 PUSH0 CALLDATASIZE PUSH0 PUSH2 ${p} GAS STATICCALL RETURNDATASIZE PUSH0 PUSH0 RETURNDATACOPY RETURNDATASIZE PUSH0 RETURN`, {
          data: input,
        }),
      )
    }
    await expectSame(call('PUSH0 PUSH0 PUSH0 PUSH0 PUSH1 1 PUSH1 8 CALL PUSH0 MSTORE PUSH1 32 PUSH0 RETURN'))
    // KZG (0x0a, the Common's crypto: src/util/kzg.ts): 192 zero bytes (a versioned hash of no commitment), and EIP-4844's valid vector.
    await expectSame(call('PUSH0 PUSH0 PUSH1 192 PUSH0 PUSH1 10 GAS STATICCALL PUSH0 MSTORE PUSH1 32 PUSH0 RETURN'))
    const kzgValid =
      '0x01e798154708fe7789429634053cbf9f99b619f9f084048927333fce637f549b564c0a11a0f704f4fc3e8acfe0f8245f0ad1347b378fbf96e206da11a5d3630624d25032e67a7e6a4910df5834b8fe70e6bcfeeac0352434196bdf4b2485d5a18f59a8d2a1a625a17f3fea0fe5eb8c896db3764f3185481bc22f91b4aaffcca25f26936857bc3a7c2539ea8ec3a952b7873033e038326e87ed3e1276fd140253fa08e9fc25fb2d9a98527fc22a2c9612fbeafdad446cbc7bcdbdcd780af2c16a'
    const kzgCall = call('CALLDATASIZE PUSH0 PUSH0 CALLDATACOPY PUSH1 64 PUSH0 CALLDATASIZE PUSH0 PUSH1 10 GAS STATICCALL RETURNDATASIZE PUSH0 PUSH0 RETURNDATACOPY RETURNDATASIZE PUSH0 RETURN', {
      data: kzgValid,
    })
    await expectSame(kzgCall)
    expect(bytesToHex((await runOurs(kzgCall)).returnData)).toBe('0x000000000000000000000000000000000000000000000000000000000000100073eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001')
    await expectSame(call('PUSH1 32 PUSH0 PUSH1 32 PUSH0 PUSH1 4 PUSH1 20 STATICCALL PUSH0 MSTORE PUSH1 32 PUSH0 RETURN'))
  })

  it('creates with CREATE and CREATE2, deposits code, fails on 0xEF, size, collision', async () => {
    // initcode: returns 3 bytes 0x600100
    const init = 'PUSH3 0x600100 PUSH0 MSTORE PUSH1 3 PUSH1 29 RETURN'
    const initHex = bytesToHex(asm(init)).slice(2)
    const store = `PUSH32 0x${initHex.padEnd(64, '0')} PUSH0 MSTORE`
    const n = asm(init).length
    await expectSame(call(`${store} PUSH1 ${n} PUSH0 PUSH1 9 CREATE DUP1 EXTCODESIZE ${ret}`))
    await expectSame(call(`${store} PUSH1 1 PUSH1 ${n} PUSH0 PUSH1 9 CREATE2 PUSH1 1 PUSH1 ${n} PUSH0 PUSH1 9 CREATE2 ADD ${ret}`))
    const ef = 'PUSH1 0xef PUSH0 MSTORE8 PUSH1 1 PUSH0 RETURN'
    await expectSame(call(`PUSH32 0x${bytesToHex(asm(ef)).slice(2).padEnd(64, '0')} PUSH0 MSTORE PUSH1 ${asm(ef).length} PUSH0 PUSH0 CREATE ${ret}`))
    await expectSame(call(`PUSH32 0x${bytesToHex(asm('PUSH2 24577 PUSH0 RETURN')).slice(2).padEnd(64, '0')} PUSH0 MSTORE PUSH1 5 PUSH0 PUSH0 CREATE ${ret}`))
    const reverting = 'PUSH1 0xef PUSH0 MSTORE8 PUSH1 1 PUSH0 REVERT'
    await expectSame(call(`PUSH32 0x${bytesToHex(asm(reverting)).slice(2).padEnd(64, '0')} PUSH0 MSTORE PUSH1 ${asm(reverting).length} PUSH0 PUSH0 CREATE RETURNDATASIZE ${ret}`))
    await expectSame(call(`PUSH2 49153 PUSH0 PUSH0 CREATE ${ret}`))
  })

  it('creates at the top level, with collisions and failures', async () => {
    const base = { [bytesToHex(ALICE)]: { balance: 10n ** 20n, nonce: 3n } }
    const init = asm('PUSH1 1 PUSH1 2 SSTORE PUSH3 0x600100 PUSH0 MSTORE PUSH1 3 PUSH1 29 RETURN')
    await expectSame({ pre: base, msg: { caller: ALICE, data: init, value: 10n } })
    await expectSame({ pre: base, msg: { caller: ALICE, data: asm('PUSH1 1 PUSH0 REVERT') } })
    await expectSame({ pre: base, msg: { caller: ALICE, data: asm('INVALID') } })
    await expectSame({ pre: base, msg: { caller: ALICE, data: init, gasLimit: 30_000n } })
    const collided = { ...base, '0x3c4d3a1ee0c7b5c6f1de6a1e48d6c1b0d75e8e0b': { nonce: 1n } }
    await expectSame({ pre: collided, msg: { caller: ALICE, data: init } })
  })

  it('top-level value transfers and their failure', async () => {
    await expectSame({ pre: { [bytesToHex(ALICE)]: { balance: 5n } }, msg: { caller: ALICE, to: hexToBytes(E as `0x${string}`), value: 6n } })
    await expectSame({ pre: { [bytesToHex(ALICE)]: { balance: 5n } }, msg: { caller: ALICE, to: hexToBytes(E as `0x${string}`), value: 5n } })
    await expectSame({ pre: { [bytesToHex(ALICE)]: { balance: 5n } }, msg: { caller: ALICE, to: hexToBytes(E as `0x${string}`), value: 1n, skipNonceIncrement: false } })
  })

  it('self-destructs (EIP-6780): in the creating transaction, and not', async () => {
    await expectSame(call(`PUSH20 ${E} SELFDESTRUCT`))
    await expectSame(call(`ADDRESS SELFDESTRUCT`))
    const init = `PUSH20 ${E} SELFDESTRUCT`
    const code = asm(init)
    await expectSame(call(`PUSH32 0x${bytesToHex(code).slice(2).padEnd(64, '0')} PUSH0 MSTORE PUSH1 ${code.length} PUSH0 PUSH1 9 CREATE ${ret}`))
    await expectSame({ pre: { [bytesToHex(ALICE)]: { balance: 100n } }, msg: { caller: ALICE, data: asm('ADDRESS SELFDESTRUCT'), value: 10n } })
  })

  it('static calls refuse state changes', async () => {
    const pre = { [D]: { code: asm('PUSH1 1 PUSH0 SSTORE') } }
    await expectSame(call(`PUSH0 PUSH0 PUSH0 PUSH0 PUSH20 ${D} GAS STATICCALL ${ret}`, { pre }))
    const pre2 = { [D]: { code: asm('PUSH1 1 PUSH0 TSTORE') } }
    await expectSame(call(`PUSH0 PUSH0 PUSH0 PUSH0 PUSH20 ${D} GAS STATICCALL ${ret}`, { pre: pre2 }))
    const pre3 = { [D]: { code: asm('PUSH0 PUSH0 LOG0') } }
    await expectSame(call(`PUSH0 PUSH0 PUSH0 PUSH0 PUSH20 ${D} GAS STATICCALL ${ret}`, { pre: pre3 }))
  })

  it('recurses to the depth limit', async () => {
    const code = 'PUSH0 PUSH0 PUSH0 PUSH0 ADDRESS GAS DELEGATECALL PUSH1 1 SLOAD PUSH1 1 ADD PUSH1 1 SSTORE'
    const r = await expectSame(call(code, { gas: 30_000_000n }))
    expect(r.error).toBeUndefined()
  })
})
