import { getOpcodesForHF, paramsEVM } from '@ethereumjs/evm'
import { type Account, bytesToHex, bytesToUnprefixedHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { expect } from 'vitest'
import { chainCommon } from '../../src/engine/rules/chainCommon.js'
import { evmRules } from '../../src/evm/evmRules.js'
import { runMessage } from '../../src/evm/runMessage.js'
import type { EvmBlock, EvmMessage, EvmResult } from '../../src/evm/types.js'
import { keccak256 } from '../../src/util/crypto.js'
import { ethereumjsMessage } from './ethereumjsMessage.js'
import { type MemoryAccount, MemoryState } from './memoryState.js'

/*
 * Differential runs of src/evm/runMessage against ethereumjs 10's evm.runCall (after runTx's warm-up,
 * as src/engine/exec/directCall.ts does it) on the same pre-state, OverlayState under ethereumjs.
 */

export interface PreAccount {
  balance?: bigint
  nonce?: bigint
  code?: Uint8Array
  storage?: Record<string, bigint>
}

export const common = chainCommon(43112n)
const names = new Map<string, number>()
const withParams = common.copy()
withParams.updateParams(paramsEVM)
for (const [code, op] of getOpcodesForHF(withParams).opcodes) names.set(op.fullName, code)
names.set('INVALID', 0xfe)

/** A tiny assembler: opcode names, PUSHn followed by its value (decimal or 0x-hex), `0x..` raw bytes. */
export function asm(src: string): Uint8Array {
  const out: number[] = []
  const tokens = src.trim().split(/\s+/)
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.startsWith('raw:')) {
      out.push(...hexToBytes(`0x${t.slice(4)}`))
      continue
    }
    const op = names.get(t)
    if (op === undefined) throw new Error(`unknown opcode ${t}`)
    out.push(op)
    if (op >= 0x60 && op <= 0x7f) {
      const n = op - 0x5f
      const v = BigInt(tokens[++i]!)
      out.push(
        ...setLengthLeft(
          hexToBytes(
            `0x${v
              .toString(16)
              .padStart(2, '0')
              .replace(/^(.)((..)*)$/, '0$1$2')}`,
          ),
          n,
        ),
      )
    }
  }
  return Uint8Array.from(out)
}

export const addr = (n: number): `0x${string}` => `0x${n.toString(16).padStart(40, '0')}`

export const BLOCK: EvmBlock = {
  number: 1000n,
  timestamp: 1_700_000_000n,
  coinbase: hexToBytes(addr(0xc0)),
  gasLimit: 15_000_000n,
  baseFee: 25_000_000_000n,
  prevRandao: keccak256(Uint8Array.of(7)),
  blobBaseFee: 1n,
}

const blockHash = (n: bigint) => keccak256(hexToBytes(`0x${n.toString(16).padStart(16, '0')}`))

/** A case's pre-state as the in-memory state both EVMs read (zero slots are absent there). */
function preState(pre: Record<string, PreAccount>): MemoryState {
  const accounts = new Map<string, MemoryAccount>()
  for (const [a, p] of Object.entries(pre)) {
    const storage = new Map<string, bigint>()
    for (const [k, v] of Object.entries(p.storage ?? {})) if (v !== 0n) storage.set(bytesToUnprefixedHex(setLengthLeft(hexToBytes(k as `0x${string}`), 32)), v)
    accounts.set(a.toLowerCase().slice(2), { balance: p.balance ?? 0n, nonce: p.nonce ?? 0n, code: p.code ?? new Uint8Array(0), storage })
  }
  return new MemoryState(accounts)
}

export interface Case {
  pre: Record<string, PreAccount>
  msg: Partial<EvmMessage> & { caller: Uint8Array }
}

function fullMsg(c: Case): EvmMessage {
  return { to: undefined, value: 0n, data: new Uint8Array(0), gasLimit: 1_000_000n, gasPrice: 7n, block: BLOCK, ...c.msg }
}

/** ethereumjs's answer, in EvmResult's shape (ethereumjsMessage.ts: the node's way of running a call on it). */
export function runEthereumjs(c: Case): Promise<EvmResult> {
  return ethereumjsMessage(common, preState(c.pre), { blockHash: async (n) => blockHash(n) }, fullMsg(c))
}

export async function runOurs(c: Case): Promise<EvmResult> {
  const rules = evmRules(common)!
  return runMessage(rules, preState(c.pre), { blockHash: async (n) => blockHash(n) }, fullMsg(c))
}

function plain(r: EvmResult): unknown {
  const hex = (b: Uint8Array) => bytesToHex(b)
  const acc = (a: Account | null) => (a === null ? null : { nonce: a.nonce, balance: a.balance, root: hex(a.storageRoot), code: hex(a.codeHash) })
  return {
    returnData: hex(r.returnData),
    executionGasUsed: r.executionGasUsed,
    gasRefund: r.gasRefund,
    error: r.error,
    createdAddress: r.createdAddress && hex(r.createdAddress),
    logs: r.logs.map((l) => ({ address: hex(l.address), topics: l.topics.map(hex), data: hex(l.data) })),
    accounts: Object.fromEntries([...r.changes.accounts].sort().map(([k, v]) => [k, acc(v)])),
    storage: Object.fromEntries([...r.changes.storage].sort().map(([k, v]) => [k, Object.fromEntries([...v].sort().map(([s, x]) => [s, hex(x)]))])),
    cleared: [...r.changes.cleared].sort(),
    codes: Object.fromEntries([...r.changes.codes].sort().map(([k, v]) => [k, hex(v)])),
    accessed: Object.fromEntries([...r.accessed].sort().map(([k, v]) => [k, [...v].sort()])),
  }
}

/** Runs `c` on both and expects every field equal; returns ours. */
export async function expectSame(c: Case): Promise<EvmResult> {
  const theirs = await runEthereumjs(c)
  const ours = await runOurs(c)
  expect(plain(ours)).toEqual(plain(theirs))
  return ours
}
