import { createEVM } from '@ethereumjs/evm'
import { Account, Address, KECCAK256_NULL, bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util'
import { chainCommon } from '../src/engine/rules/chainCommon.js'
import { OverlayState } from '../src/engine/state/overlayState.js'
import { evmRules } from '../src/evm/evmRules.js'
import { runMessage } from '../src/evm/runMessage.js'
import type { EvmBlock } from '../src/evm/types.js'
import { keccak256 } from '../src/util/crypto.js'

// Times an ERC-20 balanceOf-like call (selector dispatch, mapping slot by keccak, SLOAD, RETURN)
// on src/evm/runMessage and on ethereumjs's evm.runCall, each on fresh OverlayStates over one base.
// Run: npm run build && node dist/scripts/benchInterpreter.js [iterations]

// selector check, keccak(addr . 0) slot, SLOAD, return
const CODE = hexToBytes('0x60003560e01c806370a0823114601457600080fd5b600435600052600060205260406000205460005260206000f3')
const TOKEN = new Address(hexToBytes('0x00000000000000000000000000000000000c0de0'))
const CALLER = new Address(hexToBytes('0x00000000000000000000000000000000000a11ce'))
const DATA = hexToBytes(`0x70a08231${'00'.repeat(12)}${'00000000000000000000000000000000000a11ce'}`)
const codeHash = keccak256(CODE)
const base = {
  getAccount: async (a: Address) => (a.equals(TOKEN) ? new Account(1n, 0n, undefined, codeHash) : a.equals(CALLER) ? new Account(0n, 10n ** 18n) : undefined),
  getStorage: async () => Uint8Array.of(0x2a),
  getCode: async (a: Address) => (a.equals(TOKEN) ? CODE : new Uint8Array(0)),
}
const codes = (h: Uint8Array) => (bytesToUnprefixedHex(h) === bytesToUnprefixedHex(codeHash) ? CODE : bytesToUnprefixedHex(h) === bytesToUnprefixedHex(KECCAK256_NULL) ? new Uint8Array(0) : undefined)
const block: EvmBlock = { number: 1n, timestamp: 1n, coinbase: new Uint8Array(20), gasLimit: 15_000_000n, baseFee: 1n, prevRandao: new Uint8Array(32), blobBaseFee: 1n }

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 20_000)
  const common = chainCommon(43112n)
  const rules = evmRules(common)!
  const msg = { caller: CALLER.bytes, to: TOKEN.bytes, value: 0n, data: DATA, gasLimit: 100_000n, gasPrice: 0n, block, skipNonceIncrement: true }
  const evm = await createEVM({ common: common.copy(), stateManager: new OverlayState(base, codes) })
  const ejsBlock = {
    header: {
      number: 1n,
      timestamp: 1n,
      coinbase: new Address(new Uint8Array(20)),
      gasLimit: 15_000_000n,
      baseFeePerGas: 1n,
      prevRandao: new Uint8Array(32),
      difficulty: 0n,
      getBlobGasPrice: () => 1n,
    },
  }
  const ours = async () => {
    const r = await runMessage(rules, new OverlayState(base, codes), { blockHash: async () => new Uint8Array(32) }, msg)
    if (r.error !== undefined) throw new Error(r.error)
  }
  const theirs = async () => {
    ;(evm as unknown as { stateManager: OverlayState }).stateManager = new OverlayState(base, codes)
    evm.journal.cleanJournal()
    const r = await evm.runCall({ block: ejsBlock as never, gasPrice: 0n, caller: CALLER, gasLimit: 100_000n, to: TOKEN, data: DATA, skipNonceIncrement: true })
    if (r.execResult.exceptionError !== undefined) throw new Error(r.execResult.exceptionError.error)
  }
  for (const [name, run] of [
    ['src/evm runMessage', ours],
    ['ethereumjs runCall', theirs],
  ] as const) {
    for (let i = 0; i < 2000; i++) await run()
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < n; i++) await run()
    const us = Number(process.hrtime.bigint() - t0) / 1000 / n
    console.log(`${name}: ${us.toFixed(2)} µs/call (${Math.round(1e6 / us)} calls/s, ${n} calls)`)
  }
}

await main()
