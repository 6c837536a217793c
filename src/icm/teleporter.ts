import { AbiCoder, Interface, type Result, getBytes, hexlify } from 'ethers'

/** TeleporterMessenger v1.0.0's address on every chain (its keyless deployment's CREATE address). */
export const TELEPORTER_MESSENGER = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf'

const MESSAGE =
  'tuple(uint256 messageNonce, address originSenderAddress, bytes32 destinationBlockchainID, address destinationAddress, uint256 requiredGasLimit, address[] allowedRelayerAddresses, tuple(uint256 receivedMessageNonce, address relayerRewardAddress)[] receipts, bytes message)'

/** The part of ITeleporterMessenger (v1.0.0) a relayer speaks. */
export const teleporter = new Interface([
  `event SendCrossChainMessage(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, ${MESSAGE} message, tuple(address feeTokenAddress, uint256 amount) feeInfo)`,
  'function receiveCrossChainMessage(uint32 messageIndex, address relayerRewardAddress)',
  'function messageReceived(bytes32 messageID) view returns (bool)',
])

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

export const SEND_CROSS_CHAIN_MESSAGE_TOPIC = getBytes(teleporter.getEvent('SendCrossChainMessage')!.topicHash)

function messageOf(r: Result): TeleporterMessage {
  return {
    messageNonce: r.messageNonce as bigint,
    originSenderAddress: r.originSenderAddress as string,
    destinationBlockchainID: getBytes(r.destinationBlockchainID as string),
    destinationAddress: r.destinationAddress as string,
    requiredGasLimit: r.requiredGasLimit as bigint,
    allowedRelayerAddresses: [...(r.allowedRelayerAddresses as string[])],
    receipts: (r.receipts as Result[]).map((x) => ({ receivedMessageNonce: x.receivedMessageNonce as bigint, relayerRewardAddress: x.relayerRewardAddress as string })),
    message: getBytes(r.message as string),
  }
}

/** A SendCrossChainMessage log's message ID and message. */
export function decodeSendCrossChainMessage(topics: readonly Uint8Array[], data: Uint8Array): { id: Uint8Array; message: TeleporterMessage } {
  const parsed = teleporter.decodeEventLog(
    'SendCrossChainMessage',
    data,
    topics.map((t) => hexlify(t)),
  )
  return { id: getBytes(parsed.messageID as string), message: messageOf(parsed.message as Result) }
}

/** The Warp payload the messenger sends: `abi.encode(TeleporterMessage)`. */
export function encodeTeleporterMessage(m: TeleporterMessage): Uint8Array {
  const receipts = m.receipts.map((r) => [r.receivedMessageNonce, r.relayerRewardAddress])
  const tuple = [m.messageNonce, m.originSenderAddress, m.destinationBlockchainID, m.destinationAddress, m.requiredGasLimit, m.allowedRelayerAddresses, receipts, m.message]
  return getBytes(AbiCoder.defaultAbiCoder().encode([MESSAGE], [tuple]))
}

/**
 * The gas limit icm-relayer gives a delivery (icm-contracts utils/gas-utils, Granite constants): the
 * message's required gas, the predicate's chunks twice at 512, 35 per byte of the Warp payload, 2,500 per
 * receipt, 250 per signer, predicate verification (125,000), the precompile's read (750), and 250,000 over.
 */
export function deliveryGasLimit(m: TeleporterMessage, predicateChunks: number, payloadLength: number, signers: number): bigint {
  return m.requiredGasLimit + BigInt(2 * 512 * predicateChunks + 35 * payloadLength + 2_500 * m.receipts.length + 250 * signers + 125_000 + 750 + 250_000)
}
