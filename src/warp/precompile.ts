import { AbiCoder, Interface, zeroPadValue } from 'ethers'
import { keccak256 } from '../util/crypto.js'
import { encodeUnsignedMessage, messageID } from './message.js'
import { encodeAddressedCall } from './payload.js'

/*
 * The Warp precompile as coreth runs it from Granite on (graft/coreth/precompile/contracts/warp
 * contract.go, contract_warp_handler.go): four functions behind their selectors, Granite's gas, the
 * SendWarpMessage log. Both of the node's EVMs run it: the interpreter (src/evm/, ChainPrecompile)
 * and ethereumjs (src/engine/exec/chainVm.ts). docs/WARP.md says what is exact.
 */

/** The precompile's address. */
export const WARP_ADDRESS = '0200000000000000000000000000000000000005'
const WARP_ADDRESS_BYTES = Uint8Array.from(Buffer.from(WARP_ADDRESS, 'hex'))

/** Granite's gas (coreth warp/contract.go); a local network runs Granite from genesis. */
export const WARP_GAS = {
  getBlockchainID: 200n,
  getVerifiedWarpMessageBase: 750n,
  perWarpMessageChunk: 512n,
  perWarpSigner: 250n,
  verifyPredicateBase: 125_000n,
  /** LogGas + 3 x LogTopicGas + 20,000 (signing) + 20,000 (a slot written). */
  sendWarpMessageBase: 41_500n,
  /** Per byte of the ABI input (selector excluded). */
  sendWarpMessagePerByte: 8n,
} as const

const ABI = new Interface([
  'event SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message)',
  'function sendWarpMessage(bytes payload) returns (bytes32 messageID)',
  'function getVerifiedWarpMessage(uint32 index) view returns ((bytes32 sourceChainID, address originSenderAddress, bytes payload) message, bool valid)',
  'function getVerifiedWarpBlockHash(uint32 index) view returns ((bytes32 sourceChainID, bytes32 blockHash) warpBlockHash, bool valid)',
  'function getBlockchainID() view returns (bytes32 blockchainID)',
])
const SELECTORS = {
  sendWarpMessage: ABI.getFunction('sendWarpMessage')!.selector,
  getVerifiedWarpMessage: ABI.getFunction('getVerifiedWarpMessage')!.selector,
  getVerifiedWarpBlockHash: ABI.getFunction('getVerifiedWarpBlockHash')!.selector,
  getBlockchainID: ABI.getFunction('getBlockchainID')!.selector,
}
/** keccak("SendWarpMessage(address,bytes32,bytes)"). */
export const SEND_WARP_MESSAGE_TOPIC = keccak256(new TextEncoder().encode('SendWarpMessage(address,bytes32,bytes)'))
const ZERO32 = `0x${'00'.repeat(32)}`

/** The chain a precompile runs on. */
export interface WarpChain {
  networkID: number
  /** 32 bytes: the chain's blockchain ID (not its EVM chain ID). */
  blockchainID: Uint8Array
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
const hexBytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))

/** Runs one call of the precompile on `chain`. */
export function runWarpPrecompile(chain: WarpChain, call: WarpCall): WarpOutcome {
  const failed = (error: string): WarpOutcome => ({ returnData: EMPTY, gasUsed: call.gas, error, logs: [] })
  let left = call.gas
  // contract.DeductGas: not enough is an out-of-gas failure.
  const charge = (cost: bigint): boolean => {
    if (left < cost) return false
    left -= cost
    return true
  }
  const done = (returnData: string): WarpOutcome => ({ returnData: hexBytes(returnData), gasUsed: call.gas - left, logs: [] })
  if (call.data.length < 4) return failed(`missing function selector to precompile - input length (${call.data.length})`)
  const selector = `0x${Buffer.from(call.data.subarray(0, 4)).toString('hex')}`
  const input = call.data.subarray(4)
  switch (selector) {
    case SELECTORS.getBlockchainID:
      if (!charge(WARP_GAS.getBlockchainID)) return failed('out of gas')
      return done(ABI.encodeFunctionResult('getBlockchainID', [chain.blockchainID]))
    case SELECTORS.getVerifiedWarpMessage:
    case SELECTORS.getVerifiedWarpBlockHash: {
      if (!charge(WARP_GAS.getVerifiedWarpMessageBase)) return failed('out of gas')
      const name = selector === SELECTORS.getVerifiedWarpMessage ? 'getVerifiedWarpMessage' : 'getVerifiedWarpBlockHash'
      try {
        AbiCoder.defaultAbiCoder().decode(['uint32'], input)
      } catch (err) {
        return failed(`invalid input: ${(err as Error).message}`)
      }
      // No predicate at that index (a transaction's predicates are not read yet): the zero value, not valid.
      const zero = name === 'getVerifiedWarpMessage' ? [ZERO32, `0x${'00'.repeat(20)}`, '0x'] : [ZERO32, ZERO32]
      return done(ABI.encodeFunctionResult(name, [zero, false]))
    }
    case SELECTORS.sendWarpMessage: {
      if (!charge(WARP_GAS.sendWarpMessageBase)) return failed('out of gas')
      // Charged on the input's size before it is unpacked (coreth: buffer room over the payload's own size).
      if (!charge(WARP_GAS.sendWarpMessagePerByte * BigInt(input.length))) return failed('out of gas')
      if (call.isStatic) return failed('write protection')
      let payload: Uint8Array
      try {
        payload = hexBytes(AbiCoder.defaultAbiCoder().decode(['bytes'], input)[0] as string)
      } catch (err) {
        return failed(`invalid input: ${(err as Error).message}`)
      }
      let unsigned: Uint8Array
      try {
        unsigned = encodeUnsignedMessage({ networkID: chain.networkID, sourceChainID: chain.blockchainID, payload: encodeAddressedCall(call.caller, payload) })
      } catch (err) {
        return failed((err as Error).message)
      }
      const id = messageID(unsigned)
      const out = done(ABI.encodeFunctionResult('sendWarpMessage', [id]))
      out.logs.push({
        address: WARP_ADDRESS_BYTES,
        topics: [SEND_WARP_MESSAGE_TOPIC, hexBytes(zeroPadValue(call.caller, 32)), id],
        data: hexBytes(AbiCoder.defaultAbiCoder().encode(['bytes'], [unsigned])),
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
    const unsigned = hexBytes(AbiCoder.defaultAbiCoder().decode(['bytes'], log.data)[0] as string)
    out.push({ id: messageID(unsigned), unsigned })
  }
  return out
}
