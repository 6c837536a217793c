import { KECCAK256_RLP, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { ForkError, OriginRpcError } from '../../fork/errors.js'
import { keccak256 } from '../../util/crypto.js'
import type { OriginClient } from '../../fork/originClient.js'
import { ChainStore } from '../../store/chainStore.js'
import type { Database } from '../../store/db.js'
import { flatRootOp } from '../../store/flatState.js'
import { type ForkRecord, forkRecordOp, readForkRecord } from '../../store/forkRecord.js'
import { type Header, encodeBlock, heliconFields } from './block.js'
import { encodeReceipts } from './receipt.js'
import { OPTIONAL_HEADER_JSON_KEYS } from '../../subnetevm/headerLayout.js'
import type { Genesis } from '../rules/genesis.js'

type BlockJson = Record<string, unknown>

/** Fork the chain of `origin` at its block `blockNumber` (its latest when undefined): the engine's `fork` option. */
export interface ForkOrigin {
  origin: OriginClient
  blockNumber: bigint | undefined
}

/**
 * The fork record of the database, or (first start) the origin's block N fetched and written as
 * the chain's first block; undefined for a chain that is not a fork. A database holding another
 * chain, or a fork of another block, is refused, as is a fork's database started without its origin.
 */
export async function openForkRecord(db: Database, fork: ForkOrigin | undefined): Promise<ForkRecord | undefined> {
  const stored = readForkRecord(db)
  if (fork === undefined) {
    if (stored !== undefined)
      throw new ForkError(`the data directory holds a fork (block ${stored.number} of chain ${stored.chainId}): start it with --fork-url (its origin), or use another --data-dir`)
    return undefined
  }
  const { origin, blockNumber: requested } = fork
  if (stored !== undefined) {
    if (requested !== undefined && requested !== stored.number) {
      throw new ForkError(`the data directory holds a fork of block ${stored.number}, not of block ${requested}; use another --data-dir (or anvil_reset to fork again)`)
    }
    return stored
  }
  if (new ChainStore(db).readGenesisHash() !== undefined) throw new ForkError('the data directory holds a chain of its own, not a fork; use another --data-dir')
  const record = await fetchForkRecord(origin, requested)
  await writeForkBase(db, record)
  return record
}

/** The origin's chain ID and block N (its latest when `requested` is undefined). */
export async function fetchForkRecord(origin: OriginClient, requested: bigint | undefined): Promise<ForkRecord> {
  const tag = requested === undefined ? 'latest' : `0x${requested.toString(16)}`
  const [chainId, block] = await Promise.all([origin.call<string>('eth_chainId'), origin.call<BlockJson | null>('eth_getBlockByNumber', [tag, false])])
  if (block === null || typeof block !== 'object') {
    const latest = await origin.call<string>('eth_blockNumber')
    throw new ForkError(`fork origin ${origin.name} has no block ${requested} (its latest is ${BigInt(latest)})`)
  }
  const header = headerFromJson(block)
  return { number: header.number, hash: bytes(block.hash), stateRoot: await provenRoot(origin, header), chainId: BigInt(chainId), blockJson: JSON.stringify(block) }
}

/**
 * The state root the origin's proofs at N lead to: the header's, unless the origin edited its
 * head's state without a block (anvil_setBalance on anvil or on this node), when its proofs show
 * the state it answers with. The root node is the first of any account proof.
 */
async function provenRoot(origin: OriginClient, header: Header): Promise<Uint8Array> {
  const proof = await origin.call<{ accountProof?: string[] }>('eth_getProof', [`0x${'00'.repeat(20)}`, [], `0x${header.number.toString(16)}`]).catch((err: Error) => {
    throw new ForkError(`fork origin ${origin.name} does not serve eth_getProof at block ${header.number}: ${err instanceof OriginRpcError ? err.originMessage : err.message}`)
  })
  const first = proof?.accountProof?.[0]
  return first === undefined ? KECCAK256_RLP : keccak256(hexToBytes(first as `0x${string}`))
}

/**
 * Writes the origin's block N as the chain's first block (the genesis of this database) with the
 * fork record, in one atomic write; the flat state starts empty at N's state root (it holds only
 * what the fork reads or writes). Needs no origin: a reset writes it again from the record.
 */
export async function writeForkBase(db: Database, record: ForkRecord): Promise<void> {
  const header = headerFromJson(JSON.parse(record.blockJson) as BlockJson)
  const store = new ChainStore(db)
  await store.writeBlock(
    {
      hash: record.hash,
      number: record.number,
      encodedBlock: encodeBlock(header, [], new Uint8Array()),
      encodedReceipts: encodeReceipts([]),
      bloom: header.bloom,
      txHashes: [],
      stateOps: [],
      extraOps: [forkRecordOp(record), flatRootOp(record.stateRoot), ...(equalsBytes(record.stateRoot, header.stateRoot) ? [] : [store.headStateOp(record.hash, record.stateRoot)])],
    },
    { genesis: true },
  )
}

/**
 * How many of subnet-evm's optional fields a subnet-evm origin's block has (the last one present
 * counts those before it); undefined for a C-Chain's block (it has extDataHash) or an Ethereum node's
 * (no blockGasCost).
 */
function subnetEvmFieldsOf(b: BlockJson): number | undefined {
  if (b.extDataHash !== undefined || b.blockGasCost === undefined) return undefined
  let count = 0
  OPTIONAL_HEADER_JSON_KEYS.forEach((key, i) => {
    if (b[key] !== undefined) count = i + 1
  })
  return count
}

/**
 * A header from eth_getBlockByNumber's JSON. Coreth's extra fields are kept where the origin has them
 * (a C-Chain node, this node), as are a subnet-evm origin's (its layout, docs/L1.md); an Ethereum
 * node's block lacks them and they are zero. The block keeps the origin's hash (makeBlock's `hash`),
 * whatever the origin's header layout.
 */
export function headerFromJson(b: BlockJson): Header {
  const subnetEvmFields = subnetEvmFieldsOf(b)
  const n = (v: unknown) => (typeof v === 'string' ? BigInt(v) : 0n)
  return {
    parentHash: bytes(b.parentHash, 32),
    uncleHash: bytes(b.sha3Uncles, 32),
    coinbase: bytes(b.miner, 20),
    stateRoot: bytes(b.stateRoot, 32),
    txRoot: bytes(b.transactionsRoot, 32),
    receiptRoot: bytes(b.receiptsRoot, 32),
    bloom: bytes(b.logsBloom, 256),
    difficulty: n(b.difficulty),
    number: n(b.number),
    gasLimit: n(b.gasLimit),
    gasUsed: n(b.gasUsed),
    timestamp: n(b.timestamp),
    extraData: bytes(b.extraData, 0),
    mixHash: bytes(b.mixHash, 32),
    nonce: bytes(b.nonce, 8),
    extDataHash: bytes(b.extDataHash, 32),
    baseFee: n(b.baseFeePerGas),
    extDataGasUsed: n(b.extDataGasUsed),
    blockGasCost: n(b.blockGasCost),
    blobGasUsed: n(b.blobGasUsed),
    excessBlobGas: n(b.excessBlobGas),
    parentBeaconRoot: bytes(b.parentBeaconBlockRoot, 32),
    timeMilliseconds: typeof b.timestampMilliseconds === 'string' ? BigInt(b.timestampMilliseconds) : n(b.timestamp) * 1000n,
    minDelayExcess: n(b.minDelayExcess),
    // A Helicon origin's block (Fuji and Mainnet today): its hash covers the six fields.
    ...(typeof b.settledHeight === 'string' ? { helicon: heliconFields((k) => n(b[k])) } : {}),
    ...(subnetEvmFields !== undefined && { subnetEvmFields }),
  }
}

/** A hex field's bytes; absent = `size` zero bytes. */
function bytes(v: unknown, size = 32): Uint8Array {
  if (typeof v !== 'string') return new Uint8Array(size)
  return hexToBytes(v as `0x${string}`)
}

/** The genesis config a fork runs with: the local one's rules, the origin's chain ID (its alloc is never applied). */
export function forkGenesis(genesis: Genesis, record: ForkRecord | undefined): Genesis {
  return record === undefined ? genesis : { ...genesis, config: { ...genesis.config, chainId: Number(record.chainId) } }
}
