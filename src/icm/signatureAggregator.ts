import { bytesToUnprefixedHex } from '@ethereumjs/util'
import { cb58DecodeID } from '../avalanche/cb58.js'
import type { EngineWarp } from '../engine/engineWarp.js'
import type { BlsSigner } from '../warp/bls.js'
import { decodeSignedMessage, decodeUnsignedMessage, type UnsignedMessage } from '../warp/message.js'
import { signAsSoleValidator } from '../warp/signature.js'

/** A chain of the node as the aggregator sees it: what it accepted, and its subnet. */
export interface AggregatorChain {
  readonly warp: EngineWarp
  /** 32 bytes: the Primary Network's for the C-Chain. */
  readonly subnetID: Uint8Array
}

export interface AggregatorContext {
  /** Blockchain ID (hex, no 0x) -> the chain. */
  readonly chains: ReadonlyMap<string, AggregatorChain>
  /** Whether the node validates this subnet (hex, no 0x). */
  validates(subnetHex: string): boolean
  readonly signer: BlsSigner
}

/** What the HTTP route answers: a status and a JSON body. */
export interface AggregatorAnswer {
  readonly status: number
  readonly body: { 'signed-message': string } | { error: string }
}

/** The aggregator's errors for a message no validator would sign (aggregator.go errNotEnoughSignatures), and anything else. */
const NOT_ENOUGH_SIGNATURES = 'failed to collect a threshold of signatures'
const FAILED = 'failed to aggregate signatures'

const bad = (error: string): AggregatorAnswer => ({ status: 400, body: { error } })
const failed = (error: string): AggregatorAnswer => ({ status: 500, body: { error } })

/** utils.SanitizeHexString then hex.DecodeString: an optional 0x, an even number of hex digits. */
function hexBytes(text: string): Uint8Array | undefined {
  const digits = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text
  if (digits.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(digits)) return undefined
  return Uint8Array.from(Buffer.from(digits, 'hex'))
}

/** utils.UnpackWarpMessage: an unsigned message, or the unsigned part of a signed one. */
function unpack(bytes: Uint8Array): UnsignedMessage | undefined {
  try {
    return decodeUnsignedMessage(bytes)
  } catch {
    try {
      return decodeSignedMessage(bytes).unsigned
    } catch {
      return undefined
    }
  }
}

/** utils.HexOrCB58ToID. */
function subnetIDOf(text: string): Uint8Array | undefined {
  const raw = hexBytes(text)
  if (raw !== undefined && raw.length === 32) return raw
  try {
    return cb58DecodeID(text)
  } catch {
    return undefined
  }
}

/**
 * `POST /aggregate-signatures` of icm-services' signature-aggregator (signature-aggregator/api/api.go),
 * its request fields, statuses and error texts, for the node's chains: the node is the one validator of
 * every subnet it serves, so the aggregate is its own signature under the bitset 0x01 (docs/ICM.md).
 */
export function aggregateSignatures(ctx: AggregatorContext, body: unknown): AggregatorAnswer {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return bad('Could not decode request body')
  const req = body as Record<string, unknown>
  const text = (key: string): string | undefined => (req[key] === undefined || req[key] === null ? '' : typeof req[key] === 'string' ? req[key] : undefined)
  const count = (key: string): number | undefined => (req[key] === undefined || req[key] === null ? 0 : Number.isSafeInteger(req[key]) && (req[key] as number) >= 0 ? (req[key] as number) : undefined)
  const [messageText, justificationText, subnetText] = [text('message'), text('justification'), text('signing-subnet-id')]
  const quorum = count('quorum-percentage')
  // pchain-height picks the validator set's height; the node's set is the same at every height.
  if (messageText == null || justificationText == null || subnetText == null || quorum === undefined || count('pchain-height') === undefined) {
    return bad('Could not decode request body')
  }
  const bytes = hexBytes(messageText)
  if (bytes === undefined) return bad('Could not decode message')
  const message = unpack(bytes)
  if (message === undefined) return bad('Error unpacking warp message')
  if (hexBytes(justificationText) === undefined) return bad('Could not decode justification')
  if (quorum > 100) return bad('Invalid quorum number')
  let signingSubnet: Uint8Array | undefined
  if (subnetText !== '') {
    signingSubnet = subnetIDOf(subnetText)
    if (signingSubnet === undefined) return bad('Error parsing signing subnet ID')
  }
  const chain = ctx.chains.get(bytesToUnprefixedHex(message.sourceChainID))
  // The source chain's subnet cannot be found: the aggregator's generic failure.
  if (chain === undefined) return failed(FAILED)
  const subnet = signingSubnet ?? chain.subnetID
  if (!ctx.validates(bytesToUnprefixedHex(subnet)) || !chain.warp.wouldSign(message)) return failed(NOT_ENOUGH_SIGNATURES)
  // One validator holds all the weight: any quorum up to 100 % (0 = the default, 67 %) is met.
  return { status: 200, body: { 'signed-message': bytesToUnprefixedHex(signAsSoleValidator(ctx.signer, message)) } }
}
