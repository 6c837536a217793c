import { z } from 'zod'
import type { StateEditor } from '../../dev/stateEditor.js'
import { Address, Data, StorageSlot, decodeStorageKey } from '../../rpc/schemas.js'
import { LenientU256 } from './params.js'
import { type MethodTable, method } from '../../rpc/types.js'
import { InvalidParamsError } from '../../engine/base/errors.js'

/** A 32-byte storage word; shorter hex is left-padded (anvil takes a B256, hardhat a 32-byte DATA). */
const Word = StorageSlot.transform((v, ctx): Uint8Array => {
  const bytes = decodeStorageKey(v)
  if (typeof bytes === 'string') {
    ctx.addIssue({ code: 'custom', message: bytes, input: v })
    return z.NEVER as never
  }
  return bytes
})

/**
 * Edits of the head's state (anvil's semantics): visible at once, built on by the next block.
 * anvil's setters answer null (anvil_setStorageAt true); hardhat's answer true.
 */
export function stateMethods(state: StateEditor): MethodTable {
  const balance = (answer: null | true) => method(z.tuple([Address, LenientU256]), ([a, wei]) => state.setBalance(a, wei).then(() => answer))
  const code = (answer: null | true) => method(z.tuple([Address, Data]), ([a, bytes]) => state.setCode(a, bytes).then(() => answer))
  const nonce = (answer: null | true) => method(z.tuple([Address, LenientU256]), ([a, n]) => state.setNonce(a, checkNonce(n)).then(() => answer))
  const storage = method(z.tuple([Address, Word, Word]), ([a, slot, value]) => state.setStorageAt(a, slot, value).then(() => true))
  return {
    /** Handler for `anvil_setBalance`. */
    anvil_setBalance: balance(null),
    hardhat_setBalance: balance(true),
    /** Handler for `anvil_addBalance`. */
    anvil_addBalance: method(z.tuple([Address, LenientU256]), ([a, wei]) => state.addBalance(a, wei).then(() => null)),
    /** Handler for `anvil_setCode`. */
    anvil_setCode: code(null),
    hardhat_setCode: code(true),
    /** Handler for `anvil_setNonce`. */
    anvil_setNonce: nonce(null),
    hardhat_setNonce: nonce(true),
    // anvil's alias (anvil: crates/anvil/core/src/eth/mod.rs), ganache's name.
    evm_setAccountNonce: nonce(null),
    /** Handler for `anvil_setStorageAt`. */
    anvil_setStorageAt: storage,
    hardhat_setStorageAt: storage,
  }
}

function checkNonce(n: bigint): bigint {
  if (n >= 1n << 64n) throw new InvalidParamsError('nonce must fit in 64 bits')
  return n
}
