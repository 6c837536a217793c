import { bytesToBigInt, bytesToUnprefixedHex, unprefixedHexToBytes } from '@ethereumjs/util'
import { NEW_ACC, withNonce } from './account.js'
import { stateChanges } from './changes.js'
import type { EvmRules } from './evmRules.js'
import type { Ctx, Msg } from './frame.js'
import { Journal } from './journal.js'
import { runMsg } from './message.js'
import type { EvmHost, EvmMessage, EvmResult, EvmState } from './types.js'

/** Pooled stacks and memories kept per EvmRules. */
const POOL_MAX = 8

/**
 * Runs one top-level message as ethereumjs 10's `evm.runCall` does after runTx's warm-up (the
 * precompiles, the caller, `to`, the coinbase and the access list warm), then deletes what runTx
 * deletes after it: accounts that self-destructed in the transaction that created them (EIP-6780).
 * A creation's nonce bump (unless skipNonceIncrement) and its address's warmth survive a failure,
 * as in runCall. `msg.gasLimit` must be at most 2^53 - 1 (gas is counted in numbers).
 */
export async function runMessage(rules: EvmRules, state: EvmState, host: EvmHost, msg: EvmMessage): Promise<EvmResult> {
  if (msg.gasLimit > BigInt(Number.MAX_SAFE_INTEGER) || msg.gasLimit < 0n) throw new RangeError(`gas limit out of the interpreter's range: ${msg.gasLimit}`)
  const j = new Journal(state)
  const pooled = rules.pool.pop() ?? { stacks: [], mems: [] }
  const caller = bytesToUnprefixedHex(msg.caller)
  const to = msg.to === undefined ? undefined : bytesToUnprefixedHex(msg.to)
  const ctx: Ctx = {
    gas: rules.gas,
    ops: rules.ops,
    precompiles: rules.precompiles,
    chainPrecompiles: msg.chainPrecompiles,
    common: rules.common,
    precompileEvm: rules.precompileEvm,
    chainId: rules.chainId,
    j,
    host,
    block: msg.block,
    coinbase: bytesToBigInt(msg.block.coinbase),
    prevRandao: bytesToBigInt(msg.block.prevRandao),
    origin: bytesToBigInt(msg.origin ?? msg.caller),
    gasPrice: msg.gasPrice,
    blobHashes: (msg.blobHashes ?? []).map((h) => bytesToBigInt(h)),
    refund: 0,
    logs: [],
    stacks: pooled.stacks,
    mems: pooled.mems,
    blockHashes: new Map(),
    onJumpdest: msg.onJumpdest,
    ledger: msg.gasLedger,
    runMsg: (m) => runMsg(ctx, m),
  }
  try {
    for (const [address, slots] of msg.accessList ?? []) {
      const a = bytesToUnprefixedHex(address)
      j.warmAlways(a, true)
      for (const slot of slots) j.warmAlwaysSlot(a, bytesToUnprefixedHex(slot))
    }
    for (const address of rules.precompiles.keys()) j.warmAlways(address, false)
    for (const [address, p] of msg.chainPrecompiles ?? []) if (p.cold !== true) j.warmAlways(address, false)
    j.warmAlways(caller, false)
    if (to !== undefined) j.warmAlways(to, false)
    j.warmAlways(bytesToUnprefixedHex(msg.block.coinbase), false)
    if (msg.skipNonceIncrement !== true) {
      await j.needAccount(caller)
      const acc = j.account(caller) ?? NEW_ACC
      j.putAccount(caller, withNonce(acc, acc.nonce + 1n))
    }
    const top: Msg = { caller, to, codeAddress: undefined, value: msg.value, data: msg.data, gas: Number(msg.gasLimit), depth: 0, isStatic: false, delegatecall: false, salt: undefined }
    const ledger = msg.gasLedger
    if (ledger !== undefined) {
      ledger.ran = true
      ledger.budget = top.gas
    }
    const r = await runMsg(ctx, top)
    // A top-level message to a precompile or an account without code: what it needed, at the top.
    if (ledger !== undefined && r.need !== undefined && r.need > (ledger.marks.at(-1)?.at ?? 0)) ledger.marks.push({ at: r.need, child: false })
    if (r.error === undefined) {
      for (const addr of j.selfdestructs) {
        if (!j.created.has(addr)) continue
        j.putAccount(addr, null)
        j.clearStorage(addr)
      }
    }
    return {
      returnData: r.returnData,
      executionGasUsed: BigInt(r.gasUsed),
      gasRefund: BigInt(ctx.refund),
      logs: ctx.logs,
      error: r.error,
      fault: r.fault,
      createdAddress: r.createdAddress === undefined ? undefined : unprefixedHexToBytes(r.createdAddress),
      changes: stateChanges(j),
      accessed: j.accessed,
    }
  } finally {
    if (rules.pool.length < POOL_MAX) rules.pool.push(pooled)
  }
}
