import { bytesToHex as hex } from '@ethereumjs/util'
import { z } from 'zod'
import { cb58DecodeID, cb58Encode } from '../avalanche/cb58.js'
import { EngineError } from '../engine/base/errors.js'
import type { EngineWarp } from '../engine/engineWarp.js'
import { type MethodTable, method } from '../rpc/types.js'
import type { BlsSigner } from '../warp/bls.js'
import { decodeUnsignedMessage, encodeUnsignedMessage, type UnsignedMessage } from '../warp/message.js'
import { encodeHashPayload } from '../warp/payload.js'
import { signAsSoleValidator } from '../warp/signature.js'

/** The warp_ API's view of the node: the chain, the node's key, the subnet the node validates for it. */
export interface WarpApiContext {
  readonly warp: EngineWarp
  readonly signer: BlsSigner
  /** The chain's subnet (32 bytes): the Primary Network's for the C-Chain. */
  readonly subnetID: Uint8Array
}

/** ids.ID as coreth's JSON arguments take it: CB58 with its checksum. */
const ID = z.string().transform((text, c) => {
  try {
    return cb58DecodeID(text)
  } catch (err) {
    c.addIssue({ code: 'custom', message: (err as Error).message })
    return z.NEVER
  }
})
const Quorum = z.number().int().nonnegative()
/** Warp's quorum denominator (avalanchego vms/platformvm/warp WarpQuorumDenominator). */
const QUORUM_DENOMINATOR = 100

/**
 * coreth's warp_ API (graft/coreth/warp/service.go), with `warp-api-enabled`: the messages the
 * chain's accepted blocks sent, and the node's signatures of them and of its accepted blocks' hashes.
 * The node is the one validator of its chains' subnets, so an aggregate signature is its own
 * under the bitset 0x01 (docs/WARP.md).
 */
export function warpMethods(ctx: WarpApiContext): MethodTable {
  const identity = () => {
    const chain = ctx.warp.identity
    if (chain === undefined) throw new EngineError('warp is not enabled on this chain')
    return chain
  }
  /** A message the chain sent, as coreth's backend finds it (its errors' words). */
  const sent = (id: Uint8Array): Uint8Array => {
    const bytes = ctx.warp.message(id)
    const text = cb58Encode(id)
    if (bytes === undefined) throw new EngineError(`failed to get message ${text} with error failed to get warp message ${text} from db: not found`)
    return bytes
  }
  /** UnsignedMessage{network, chain, Hash{block}} of an accepted block. */
  const blockMessage = (id: Uint8Array): UnsignedMessage => {
    const text = cb58Encode(id)
    if (!ctx.warp.accepted(id)) throw new EngineError(`failed to get signature for block ${text} with error failed to get block ${text}: not found`)
    const { networkID, blockchainID } = identity()
    return { networkID, sourceChainID: blockchainID, payload: encodeHashPayload(id) }
  }
  /** The signed message, after the aggregator's checks: the subnet has validators (the node), the quorum is reachable. */
  const aggregate = (unsigned: UnsignedMessage, quorumNum: number, subnet: string): string => {
    if (subnet !== '' && Buffer.compare(cb58DecodeID(subnet), ctx.subnetID) !== 0) throw new EngineError('cannot aggregate signatures from subnet with no validators')
    if (quorumNum > QUORUM_DENOMINATOR) throw new EngineError(`signature weight is insufficient: ${quorumNum}*1 > ${QUORUM_DENOMINATOR}*1`)
    return hex(signAsSoleValidator(ctx.signer, unsigned))
  }
  return {
    /** Handler for `warp_getMessage`: the unsigned message's bytes. */
    warp_getMessage: method(z.tuple([ID]), ([id]) => hex(sent(id))),
    /** Handler for `warp_getMessageSignature`: the node's 96-byte BLS signature of the message. */
    warp_getMessageSignature: method(z.tuple([ID]), ([id]) => hex(ctx.signer.sign(sent(id)))),
    /** Handler for `warp_getBlockSignature`: the node's signature of the block's Hash message. */
    warp_getBlockSignature: method(z.tuple([ID]), ([id]) => hex(ctx.signer.sign(encodeUnsignedMessage(blockMessage(id))))),
    /** Handler for `warp_getMessageAggregateSignature`: the signed message. */
    warp_getMessageAggregateSignature: method(z.tuple([ID, Quorum, z.string()]), ([id, quorumNum, subnet]) => aggregate(decodeUnsignedMessage(sent(id)), quorumNum, subnet)),
    /** Handler for `warp_getBlockAggregateSignature`: the signed Hash message of an accepted block. */
    warp_getBlockAggregateSignature: method(z.tuple([ID, Quorum, z.string()]), ([id, quorumNum, subnet]) => aggregate(blockMessage(id), quorumNum, subnet)),
  }
}
