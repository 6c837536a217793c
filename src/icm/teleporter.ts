import { bytesToHex, concatBytes, toChecksumAddress } from '@ethereumjs/util'
import { type AbiType, abiDecode, abiEncode, eventTopic, selectorOf } from '../util/abi.js'

/** TeleporterMessenger v1.0.0's address on every chain (its keyless deployment's CREATE address). */
export const TELEPORTER_MESSENGER = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf'

/** The part of ITeleporterMessenger (v1.0.0) a relayer speaks, by its signatures. */
const MESSAGE_SIGNATURE = '(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes)'
/** TeleporterMessage(messageNonce, originSenderAddress, destinationBlockchainID, destinationAddress, requiredGasLimit, allowedRelayerAddresses, receipts(receivedMessageNonce, relayerRewardAddress)[], message) */
const MESSAGE: AbiType = { tuple: ['uint256', 'address', 'bytes32', 'address', 'uint256', { array: 'address' }, { array: { tuple: ['uint256', 'address'] } }, 'bytes'] }
/** TeleporterFeeInfo(feeTokenAddress, amount) */
const FEE_INFO: AbiType = { tuple: ['address', 'uint256'] }

/** A TeleporterMessage as a relayer reads it. */
export interface TeleporterMessage {
  readonly messageNonce: bigint
  readonly originSenderAddress: string
  readonly destinationBlockchainID: Uint8Array
  readonly destinationAddress: string
  readonly requiredGasLimit: bigint
  readonly allowedRelayerAddresses: readonly string[]
  readonly receipts: readonly { receivedMessageNonce: bigint; relayerRewardAddress: string }[]
  readonly message: Uint8Array
}

/** SendCrossChainMessage(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, TeleporterMessage message, TeleporterFeeInfo feeInfo) */
export const SEND_CROSS_CHAIN_MESSAGE_TOPIC = eventTopic(`SendCrossChainMessage(bytes32,bytes32,${MESSAGE_SIGNATURE},(address,uint256))`)

const address = (bytes: unknown): string => toChecksumAddress(bytesToHex(bytes as Uint8Array))

function messageOf(values: readonly unknown[]): TeleporterMessage {
  const [messageNonce, origin, destinationBlockchainID, destination, requiredGasLimit, allowed, receipts, message] = values
  return {
    messageNonce: messageNonce as bigint,
    originSenderAddress: address(origin),
    destinationBlockchainID: destinationBlockchainID as Uint8Array,
    destinationAddress: address(destination),
    requiredGasLimit: requiredGasLimit as bigint,
    allowedRelayerAddresses: (allowed as Uint8Array[]).map(address),
    receipts: (receipts as [bigint, Uint8Array][]).map(([receivedMessageNonce, reward]) => ({ receivedMessageNonce, relayerRewardAddress: address(reward) })),
    message: message as Uint8Array,
  }
}

/** A SendCrossChainMessage log's message ID (its first indexed topic) and message (its data). */
export function decodeSendCrossChainMessage(topics: readonly Uint8Array[], data: Uint8Array): { id: Uint8Array; message: TeleporterMessage } {
  if (topics.length !== 3) throw new Error(`SendCrossChainMessage has 3 topics, not ${topics.length}`)
  const [message] = abiDecode([MESSAGE, FEE_INFO], data)
  return { id: topics[1]!, message: messageOf(message as unknown[]) }
}

/** The Warp payload the messenger sends: `abi.encode(TeleporterMessage)`. */
export function encodeTeleporterMessage(m: TeleporterMessage): Uint8Array {
  const receipts = m.receipts.map((r) => [r.receivedMessageNonce, r.relayerRewardAddress])
  const tuple = [m.messageNonce, m.originSenderAddress, m.destinationBlockchainID, m.destinationAddress, m.requiredGasLimit, m.allowedRelayerAddresses, receipts, m.message]
  return abiEncode([MESSAGE], [tuple])
}

const RECEIVE_CROSS_CHAIN_MESSAGE = selectorOf('receiveCrossChainMessage(uint32,address)')
const MESSAGE_RECEIVED = selectorOf('messageReceived(bytes32)')

/** The input of receiveCrossChainMessage(uint32 messageIndex, address relayerRewardAddress). */
export function receiveCrossChainMessageInput(messageIndex: number, relayerRewardAddress: Uint8Array): Uint8Array {
  return concatBytes(RECEIVE_CROSS_CHAIN_MESSAGE, abiEncode(['uint32', 'address'], [BigInt(messageIndex), relayerRewardAddress]))
}

/** The input of messageReceived(bytes32 messageID) view returns (bool). */
export function messageReceivedInput(messageID: Uint8Array): Uint8Array {
  return concatBytes(MESSAGE_RECEIVED, abiEncode(['bytes32'], [messageID]))
}

/**
 * The gas limit icm-relayer gives a delivery (icm-contracts utils/gas-utils, Granite constants): the
 * message's required gas, the predicate's chunks twice at 512, 35 per byte of the Warp payload, 2,500 per
 * receipt, 250 per signer, predicate verification (125,000), the precompile's read (750), and 250,000 over.
 */
export function deliveryGasLimit(m: TeleporterMessage, predicateChunks: number, payloadLength: number, signers: number): bigint {
  return m.requiredGasLimit + BigInt(2 * 512 * predicateChunks + 35 * payloadLength + 2_500 * m.receipts.length + 250 * signers + 125_000 + 750 + 250_000)
}
