import { bytesToHex, bytesToUnprefixedHex, equalsBytes, hexToBytes, privateToAddress } from '@ethereumjs/util'
import type { Logger } from 'pino'
import { cb58Encode } from '../avalanche/cb58.js'
import { EngineError } from '../engine/base/errors.js'
import type { Engine } from '../engine/engine.js'
import type { Block } from '../engine/chain/block.js'
import type { Log, Receipt } from '../engine/chain/receipt.js'
import type { BlsSigner } from '../warp/bls.js'
import { encodeAddressedCall } from '../warp/payload.js'
import { packPredicate } from '../warp/predicate.js'
import { signAsSoleValidator } from '../warp/signature.js'
import { WARP_ADDRESS_BYTES } from '../warp/warpConstants.js'
import { sendSigned } from './sendSigned.js'
import {
  SEND_CROSS_CHAIN_MESSAGE_TOPIC,
  type TeleporterMessage,
  decodeSendCrossChainMessage,
  deliveryGasLimit,
  encodeTeleporterMessage,
  messageReceivedInput,
  receiveCrossChainMessageInput,
} from './teleporter.js'

/** auto: deliver as messages are accepted; manual: only when asked (icm_deliverMessage); off: no relayer. */
export type RelayerMode = 'auto' | 'manual' | 'off'

/** One of the node's chains, as the relayer reads and writes it. */
export interface RelayerChain {
  readonly blockchainID: Uint8Array
  readonly engine: Engine
}

export interface RelayerOptions {
  readonly mode: RelayerMode
  readonly networkID: number
  /** The messenger watched on every chain (TeleporterMessenger's address by default). */
  readonly messenger: Uint8Array
  readonly signer: BlsSigner
  /** The relayer account's secp256k1 key: it sends the deliveries and takes their rewards. */
  readonly key: Uint8Array
  readonly log: Logger
}

/** A message sent on one of the node's chains, as the relayer finds it. */
interface Sent {
  readonly source: RelayerChain
  readonly id: Uint8Array
  readonly message: TeleporterMessage
  readonly txHash: Uint8Array
  readonly blockNumber: bigint
}

/** What icm_pendingMessages lists: a message not delivered yet. */
export interface PendingMessage {
  readonly messageID: string
  readonly sourceBlockchainID: string
  readonly destinationBlockchainID: string
  readonly messageNonce: string
  readonly sourceTransactionHash: string
  readonly sourceBlockNumber: string
  /** `pending`; `unknown destination` when no chain of the node is the destination; `failed` after a delivery that did not deliver. */
  readonly status: 'pending' | 'unknown destination' | 'failed'
  readonly lastDelivery?: { readonly transactionHash?: string; readonly error?: string }
}

/** A delivery the relayer will not make, with its reason (a JSON-RPC -32000). */
export class RelayerError extends EngineError {}

const hexOf = (b: Uint8Array): string => bytesToUnprefixedHex(b)

/**
 * The node's own relayer (docs/ICM.md): it watches the messenger's SendCrossChainMessage on every
 * chain of the node and, for a destination that is one of them, does what icm-relayer does: checks
 * the required gas against the destination's block gas limit, the allowed relayers and
 * `messageReceived`, signs the Warp message with the node's key (the one validator), and sends
 * `receiveCrossChainMessage(0, reward)` from its account with the signed message as the predicate.
 * Whether a message is delivered is read from the destination each time (`messageReceived`), so a
 * restart, a revert or a reset needs no bookkeeping of its own: what was sent in an accepted block and
 * is not received on its destination is delivered, once.
 */
export class Relayer {
  private readonly chains = new Map<string, RelayerChain>()
  /** Deliveries are sent one at a time per destination (the account's nonces). */
  private readonly queues = new Map<string, Promise<unknown>>()
  private readonly inFlight = new Set<string>()
  private readonly attempts = new Map<string, { transactionHash?: string; error?: string }>()
  private catchUpScheduled = false
  readonly address: Uint8Array

  constructor(readonly opts: RelayerOptions) {
    this.address = privateToAddress(opts.key)
  }

  /** Adds a chain: its accepted blocks are watched (auto mode), and it is a destination. */
  attach(chain: RelayerChain): void {
    this.chains.set(hexOf(chain.blockchainID), chain)
    if (this.opts.mode !== 'auto') return
    // A revert or reset put the chain's database back: what it had received may be missing again.
    chain.engine.headEvents.on('state', () => this.scheduleCatchUp())
    chain.engine.headEvents.on('head', (block: Block, receipts: readonly Receipt[]) => {
      if (chain.engine.fork !== undefined) return
      for (const [i, receipt] of receipts.entries()) {
        for (const log of receipt.logs) {
          if (!equalsBytes(log.address, this.opts.messenger)) continue
          const sent = this.parse(chain, log, block.txs[i]!.hash(), block.header.number)
          if (sent !== undefined) this.autoDeliver(sent)
        }
      }
    })
  }

  /** Auto mode: delivers what the chains sent and their destinations have not received (after a restart, say). */
  async catchUp(): Promise<void> {
    if (this.opts.mode !== 'auto') return
    // No chain has the messenger: nothing was sent (the common case; reverts and resets call this often).
    let any = false
    for (const chain of this.local()) if (!any) any = (await chain.engine.code(this.opts.messenger, 'latest')).length > 0
    if (!any) return
    for (const sent of await this.sentMessages()) {
      // A message the relayer refused or whose delivery reverted waits for icm_deliverMessage.
      if (this.attempts.has(hexOf(sent.id))) continue
      const dest = this.chains.get(hexOf(sent.message.destinationBlockchainID))
      if (dest !== undefined && !(await this.received(dest, sent.id))) this.autoDeliver(sent)
    }
  }

  /** One catch-up after a burst of state events (snapshots, resets, state edits). */
  private scheduleCatchUp(): void {
    if (this.catchUpScheduled) return
    this.catchUpScheduled = true
    setImmediate(() => {
      this.catchUpScheduled = false
      this.catchUp().catch((err: unknown) => this.opts.log.warn({ err }, 'icm relayer: catching up failed'))
    })
  }

  /** Every message sent on the node's chains and not received on its destination. */
  async pending(): Promise<PendingMessage[]> {
    const out: PendingMessage[] = []
    for (const sent of await this.sentMessages()) {
      const dest = this.chains.get(hexOf(sent.message.destinationBlockchainID))
      if (dest !== undefined && (await this.received(dest, sent.id))) continue
      const attempt = this.attempts.get(hexOf(sent.id))
      out.push({
        messageID: bytesToHex(sent.id),
        sourceBlockchainID: cb58Encode(sent.source.blockchainID),
        destinationBlockchainID: cb58Encode(sent.message.destinationBlockchainID),
        messageNonce: sent.message.messageNonce.toString(),
        sourceTransactionHash: bytesToHex(sent.txHash),
        sourceBlockNumber: `0x${sent.blockNumber.toString(16)}`,
        status: dest === undefined ? 'unknown destination' : attempt !== undefined ? 'failed' : 'pending',
        ...(attempt !== undefined && { lastDelivery: attempt }),
      })
    }
    return out
  }

  /** Delivers one message now (whatever the mode); the delivery's transaction hash. */
  async deliver(id: Uint8Array): Promise<string> {
    const sent = (await this.sentMessages()).find((s) => equalsBytes(s.id, id))
    if (sent === undefined) throw new RelayerError(`message ${bytesToHex(id)} was not sent on any chain of this node`)
    return this.enqueue(sent)
  }

  private autoDeliver(sent: Sent): void {
    const key = hexOf(sent.id)
    if (this.inFlight.has(key) || !this.chains.has(hexOf(sent.message.destinationBlockchainID))) return
    this.inFlight.add(key)
    this.enqueue(sent)
      .catch((err: unknown) => this.opts.log.warn({ err, messageID: bytesToHex(sent.id) }, 'icm relayer: message not delivered'))
      .finally(() => this.inFlight.delete(key))
  }

  private enqueue(sent: Sent): Promise<string> {
    const destKey = hexOf(sent.message.destinationBlockchainID)
    const run = (this.queues.get(destKey) ?? Promise.resolve()).catch(() => {}).then(() => this.send(sent))
    this.queues.set(destKey, run)
    return run
  }

  /** icm-relayer's checks, then the delivery transaction. */
  private async send(sent: Sent): Promise<string> {
    const { message } = sent
    const dest = this.chains.get(hexOf(message.destinationBlockchainID))
    if (dest === undefined || dest.engine.fork !== undefined) throw new RelayerError(`destination ${cb58Encode(message.destinationBlockchainID)} is not a chain of this node`)
    const key = hexOf(sent.id)
    try {
      if ((await dest.engine.code(this.opts.messenger, 'latest')).length === 0) throw new RelayerError(`no messenger at ${bytesToHex(this.opts.messenger)} on the destination`)
      if (await this.received(dest, sent.id)) throw new RelayerError('message already delivered')
      if (message.requiredGasLimit > dest.engine.head.header.gasLimit) throw new RelayerError(`required gas limit ${message.requiredGasLimit} exceeds the destination's block gas limit`)
      const me = bytesToHex(this.address).toLowerCase()
      if (message.allowedRelayerAddresses.length > 0 && !message.allowedRelayerAddresses.some((a) => a.toLowerCase() === me))
        throw new RelayerError('the relayer is not an allowed relayer of this message')
      const payload = encodeTeleporterMessage(message)
      const unsigned = { networkID: this.opts.networkID, sourceChainID: sent.source.blockchainID, payload: encodeAddressedCall(this.opts.messenger, payload) }
      // The node signs only what its chains accepted, as a validator does.
      if (!sent.source.engine.warp.wouldSign(unsigned)) throw new RelayerError("the Warp message is not among the source chain's accepted messages")
      const chunks = packPredicate(signAsSoleValidator(this.opts.signer, unsigned))
      const engine = dest.engine
      const hash = await sendSigned(engine, this.opts.key, {
        to: this.opts.messenger,
        input: receiveCrossChainMessageInput(0, this.address),
        gas: deliveryGasLimit(message, chunks.length, payload.length, 1),
        accessList: [{ address: WARP_ADDRESS_BYTES, storageKeys: chunks }],
      })
      this.attempts.delete(key)
      this.opts.log.info({ messageID: bytesToHex(sent.id), transaction: hash }, 'icm relayer: delivery sent')
      // A delivery that reverted is listed as failed; asking again retries it.
      const mined = engine.transaction(hexToBytes(hash as `0x${string}`))
      if (mined !== undefined && 'mined' in mined && mined.mined.receipt.status === 0) {
        this.attempts.set(key, { transactionHash: hash, error: 'delivery transaction reverted' })
        this.opts.log.warn({ messageID: bytesToHex(sent.id), transaction: hash }, 'icm relayer: delivery transaction reverted')
      }
      return hash
    } catch (err) {
      this.attempts.set(key, { error: (err as Error).message })
      throw err
    }
  }

  /** messageReceived(id) on the destination's head (false where the messenger has no code). */
  private async received(dest: RelayerChain, id: Uint8Array): Promise<boolean> {
    const out = await dest.engine.call({ to: this.opts.messenger, input: messageReceivedInput(id) }, 'latest')
    return out.length === 32 && out[31] === 1
  }

  /** Every SendCrossChainMessage the messenger logged on the node's chains. */
  private async sentMessages(): Promise<Sent[]> {
    const out: Sent[] = []
    for (const chain of this.local()) {
      const found = await chain.engine.getLogs({ fromBlock: 0n, toBlock: 'latest', criteria: { addresses: [this.opts.messenger], topics: [[SEND_CROSS_CHAIN_MESSAGE_TOPIC]] } })
      for (const f of found) {
        const sent = this.parse(chain, f.log, f.txHash, f.block.header.number)
        if (sent !== undefined) out.push(sent)
      }
    }
    return out
  }

  /**
   * The chains the relayer serves: not a fork, whose messenger and messages belong to the network it
   * forks (and whose state reads would go to its origin).
   */
  private local(): RelayerChain[] {
    return [...this.chains.values()].filter((c) => c.engine.fork === undefined)
  }

  private parse(chain: RelayerChain, log: Log, txHash: Uint8Array, blockNumber: bigint): Sent | undefined {
    const { address, topics, data } = log
    if (!equalsBytes(address, this.opts.messenger) || topics.length !== 3 || !equalsBytes(topics[0]!, SEND_CROSS_CHAIN_MESSAGE_TOPIC)) return undefined
    try {
      const { id, message } = decodeSendCrossChainMessage(topics, data)
      return { source: chain, id, message, txHash, blockNumber }
    } catch {
      return undefined
    }
  }
}
