import { bytesToHex, setLengthLeft } from '@ethereumjs/util'
import { type AbiType, abiDecode, abiEncode, eventTopic, selectorOf } from '../util/abi.js'
import { encodeUnsignedMessage, messageID, type SignedMessage } from './message.js'
import { decodePayload, encodeAddressedCall } from './payload.js'
import { predicateValid, type WarpPredicate } from './predicates.js'
import { WARP_ADDRESS, WARP_ADDRESS_BYTES, WARP_GAS } from './warpConstants.js'

export { WARP_ADDRESS, WARP_GAS }

/*
 * The Warp precompile as coreth runs it from Granite on (graft/coreth/precompile/contracts/warp
 * contract.go, contract_warp_handler.go): four functions behind their selectors, Granite's gas, the
 * SendWarpMessage log. Both of the node's EVMs run it: the interpreter (src/evm/, ChainPrecompile)
 * and ethereumjs (src/engine/exec/chainVm.ts). docs/WARP.md says what is exact.
 */

// IWarpMessenger's functions (the selectors of their signatures) and the shapes of their results.
const SELECTORS = {
  sendWarpMessage: bytesToHex(selectorOf('sendWarpMessage(bytes)')),
  getVerifiedWarpMessage: bytesToHex(selectorOf('getVerifiedWarpMessage(uint32)')),
  getVerifiedWarpBlockHash: bytesToHex(selectorOf('getVerifiedWarpBlockHash(uint32)')),
  getBlockchainID: bytesToHex(selectorOf('getBlockchainID()')),
}
/** (WarpMessage(bytes32 sourceChainID, address originSenderAddress, bytes payload) message, bool valid) */
const VERIFIED_MESSAGE: AbiType[] = [{ tuple: ['bytes32', 'address', 'bytes'] }, 'bool']
/** (WarpBlockHash(bytes32 sourceChainID, bytes32 blockHash) warpBlockHash, bool valid) */
const VERIFIED_BLOCK_HASH: AbiType[] = [{ tuple: ['bytes32', 'bytes32'] }, 'bool']
/** keccak("SendWarpMessage(address,bytes32,bytes)"). */
export const SEND_WARP_MESSAGE_TOPIC = eventTopic('SendWarpMessage(address,bytes32,bytes)')
const ZERO32 = new Uint8Array(32)

/** The chain a precompile runs on. */
export interface WarpChain {
  networkID: number
  /** 32 bytes: the chain's blockchain ID (not its EVM chain ID). */
  blockchainID: Uint8Array
  /** Whether a predicate's signed message verifies (verifier.ts); none: every predicate fails. */
  verify?: (message: SignedMessage) => boolean
}

/** One call of the precompile. */
export interface WarpCall {
  /** 20 bytes. */
  caller: Uint8Array
  /** The call's input, selector included. */
  data: Uint8Array
  gas: bigint
  /** Under STATICCALL. */
  isStatic: boolean
}

/** What a call did: a failure (`error`) uses all the gas it was given and logs nothing. */
export interface WarpOutcome {
  returnData: Uint8Array
  gasUsed: bigint
  error?: string
  logs: { address: Uint8Array; topics: Uint8Array[]; data: Uint8Array }[]
}

const EMPTY = new Uint8Array(0)

/** The predicates of the transaction a call runs in, and their results (src/warp/predicates.ts). */
export interface WarpTxContext {
  predicates: readonly WarpPredicate[]
  /** Bit i set = predicate i failed verification. */
  results: Uint8Array
}

/** Runs one call of the precompile on `chain`, in a transaction with `tx`'s predicates (none when absent). */
export function runWarpPrecompile(chain: WarpChain, call: WarpCall, tx?: WarpTxContext): WarpOutcome {
  const failed = (error: string): WarpOutcome => ({ returnData: EMPTY, gasUsed: call.gas, error, logs: [] })
  let left = call.gas
  // contract.DeductGas: not enough is an out-of-gas failure.
  const charge = (cost: bigint): boolean => {
    if (left < cost) return false
    left -= cost
    return true
  }
  const done = (returnData: Uint8Array): WarpOutcome => ({ returnData, gasUsed: call.gas - left, logs: [] })
  if (call.data.length < 4) return failed(`missing function selector to precompile - input length (${call.data.length})`)
  const selector = bytesToHex(call.data.subarray(0, 4))
  const input = call.data.subarray(4)
  switch (selector) {
    case SELECTORS.getBlockchainID:
      if (!charge(WARP_GAS.getBlockchainID)) return failed('out of gas')
      return done(abiEncode(['bytes32'], [chain.blockchainID]))
    case SELECTORS.getVerifiedWarpMessage:
    case SELECTORS.getVerifiedWarpBlockHash: {
      if (!charge(WARP_GAS.getVerifiedWarpMessageBase)) return failed('out of gas')
      const name = selector === SELECTORS.getVerifiedWarpMessage ? 'getVerifiedWarpMessage' : 'getVerifiedWarpBlockHash'
      let index: number
      try {
        index = Number(abiDecode(['uint32'], input)[0])
      } catch (err) {
        return failed(`invalid index to specify warp message: ${(err as Error).message}`)
      }
      if (index > 0x7fffffff) return failed('invalid index to specify warp message: larger than MaxInt32')
      const predicate = tx?.predicates[index]
      if (predicate === undefined || !predicateValid(tx!.results, index)) {
        // No verified predicate at that index: the zero value, not valid.
        if (name === 'getVerifiedWarpMessage') return done(abiEncode(VERIFIED_MESSAGE, [[ZERO32, new Uint8Array(20), new Uint8Array(0)], false]))
        return done(abiEncode(VERIFIED_BLOCK_HASH, [[ZERO32, ZERO32], false]))
      }
      // The message is charged again at each read (coreth: each read costs execution).
      if (!charge(WARP_GAS.perWarpMessageChunk * BigInt(predicate.chunks))) return failed('out of gas')
      const { sourceChainID, payload } = predicate.message.unsigned
      let parsed: ReturnType<typeof decodePayload>
      try {
        parsed = decodePayload(payload)
      } catch (err) {
        return failed(`invalid payload: ${(err as Error).message}`)
      }
      if (name === 'getVerifiedWarpMessage') {
        if (parsed.kind !== 'addressedCall') return failed('invalid addressed payload: not an AddressedCall')
        const sender = setLengthLeft(parsed.sourceAddress.subarray(-20), 20)
        return done(abiEncode(VERIFIED_MESSAGE, [[sourceChainID, sender, parsed.payload], true]))
      }
      if (parsed.kind !== 'hash') return failed('invalid block hash payload: not a Hash')
      return done(abiEncode(VERIFIED_BLOCK_HASH, [[sourceChainID, parsed.hash], true]))
    }
    case SELECTORS.sendWarpMessage: {
      if (!charge(WARP_GAS.sendWarpMessageBase)) return failed('out of gas')
      // Charged on the input's size before it is unpacked (coreth: buffer room over the payload's own size).
      if (!charge(WARP_GAS.sendWarpMessagePerByte * BigInt(input.length))) return failed('out of gas')
      if (call.isStatic) return failed('write protection')
      let payload: Uint8Array
      try {
        payload = abiDecode(['bytes'], input)[0] as Uint8Array
      } catch (err) {
        return failed(`invalid sendWarpMessage input: ${(err as Error).message}`)
      }
      let unsigned: Uint8Array
      try {
        unsigned = encodeUnsignedMessage({ networkID: chain.networkID, sourceChainID: chain.blockchainID, payload: encodeAddressedCall(call.caller, payload) })
      } catch (err) {
        return failed((err as Error).message)
      }
      const id = messageID(unsigned)
      const out = done(abiEncode(['bytes32'], [id]))
      out.logs.push({
        address: WARP_ADDRESS_BYTES,
        topics: [SEND_WARP_MESSAGE_TOPIC, setLengthLeft(call.caller, 32), id],
        data: abiEncode(['bytes'], [unsigned]),
      })
      return out
    }
    default:
      return failed(`invalid function selector ${selector}`)
  }
}

/** The unsigned messages (with their IDs) that SendWarpMessage logs carry: what a block's acceptance stores (coreth warp/config.go Accept). */
export function sentWarpMessages(logs: readonly { address: Uint8Array; topics: readonly Uint8Array[]; data: Uint8Array }[]): { id: Uint8Array; unsigned: Uint8Array }[] {
  const out: { id: Uint8Array; unsigned: Uint8Array }[] = []
  for (const log of logs) {
    if (Buffer.compare(log.address, WARP_ADDRESS_BYTES) !== 0 || log.topics.length === 0 || Buffer.compare(log.topics[0]!, SEND_WARP_MESSAGE_TOPIC) !== 0) continue
    const unsigned = abiDecode(['bytes'], log.data)[0] as Uint8Array
    out.push({ id: messageID(unsigned), unsigned })
  }
  return out
}
