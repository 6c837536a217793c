import { getMerkleStateProof, type MerkleStateManager } from '@ethereumjs/statemanager'
import { Address, KECCAK256_RLP, bytesToBigInt, bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { EngineError, StateUnavailableError } from '../base/errors.js'
import type { BlockRef } from '../base/types.js'
import type { ForkState } from '../state/forkState.js'
import type { Block } from './block.js'

/** What a proof reads of the engine (src/engine/engine.ts serves it): blocks by reference and the trie at one. */
export interface ProofSource {
  readonly head: Block
  readonly fork: ForkState | undefined
  resolveBlock(ref: BlockRef): Block
  findBlock(ref: BlockRef): Block | undefined
  trieAt(block: Block): MerkleStateManager
}

/** One storage slot's proof (EIP-1186), as geth's StorageResult. */
export interface StorageProof {
  /** The key as the caller gave it: 32-byte hex, or a QUANTITY when it was shorter (geth). */
  key: string
  value: bigint
  proof: Uint8Array[]
}

/** An account's proof (EIP-1186), as geth's AccountResult. */
export interface AccountProof {
  address: Uint8Array
  accountProof: Uint8Array[]
  balance: bigint
  /** Zero hash for an account that does not exist (geth StateDB.GetCodeHash). */
  codeHash: Uint8Array
  nonce: bigint
  /** Zero hash for an account that does not exist (geth StateDB.GetStorageRoot). */
  storageHash: Uint8Array
  storageProof: StorageProof[]
}

const ZERO32 = new Uint8Array(32)

/**
 * eth_getProof as coreth answers it (internal/ethapi/api.go GetProof): the historical window
 * first, then the storage keys, then the state. Trie nodes under 32 bytes are embedded in their
 * parent, so, as geth's Prove, they are not separate proof elements.
 */
export async function accountProof(engine: ProofSource, window: ProofWindow, address: Uint8Array, storageKeys: readonly string[], ref: BlockRef): Promise<AccountProof> {
  checkProofWindow(engine, window, ref)
  const keys = storageKeys.map(decodeHash)
  const block = engine.resolveBlock(ref)
  const sm = engine.trieAt(block)
  const fork = engine.fork
  if (fork !== undefined) {
    // A fork's trie holds the origin's part only where something was read: walk these paths first (src/engine/state/forkState.ts).
    const root = await sm.getStateRoot()
    await fork.account(root, address)
    for (const k of keys) await fork.slot(root, address, k.hash)
  }
  const addr = new Address(address)
  const account = await sm.getAccount(addr)
  // geth builds no storage trie for an absent account or an empty storage root: empty proofs.
  const withStorage = account !== undefined && !equalsBytes(account.storageRoot, KECCAK256_RLP)
  const proof = await getMerkleStateProof(sm, addr, withStorage ? keys.map((k) => k.hash) : [])
  return {
    address,
    accountProof: proofNodes(proof.accountProof),
    balance: account?.balance ?? 0n,
    codeHash: account?.codeHash ?? ZERO32,
    nonce: account?.nonce ?? 0n,
    storageHash: account?.storageRoot ?? ZERO32,
    storageProof: keys.map((k, i) => {
      const item = withStorage ? proof.storageProof[i]! : undefined
      return { key: k.echo, value: item === undefined ? 0n : bytesToBigInt(hexToBytes(item.value as `0x${string}`)), proof: item === undefined ? [] : proofNodes(item.proof) }
    }),
  }
}

/** How far back eth_getProof answers: `blocks` behind the head; on an archival node 0 = any. */
export interface ProofWindow {
  archive: boolean
  blocks: bigint
}

/**
 * coreth api_extra.go stateQueryBlockNumberAllowed: an archival node answers blocks at most
 * `historical-proof-query-window` behind the last accepted block (0 = any), a pruning node
 * `state-history`. Tags other than `earliest` are negative block numbers there: always allowed.
 */
function checkProofWindow(engine: ProofSource, { archive, blocks: window }: ProofWindow, ref: BlockRef): void {
  if (archive && window === 0n) return
  let number: bigint
  if (typeof ref === 'bigint') number = ref
  else if (ref === 'earliest') number = 0n
  else if (typeof ref === 'object') {
    const block = engine.findBlock({ blockHash: ref.blockHash })
    if (block === undefined) throw new StateUnavailableError(`historical proof query not allowed: block from hash ${bytesToHex(ref.blockHash)} doesn't exist`)
    number = block.header.number
  } else return
  const last = engine.head.header.number
  const oldest = last > window ? last - window : 0n
  if (number >= oldest) return
  throw new StateUnavailableError(`historical proof query not allowed: block number ${number} is before the oldest allowed block number ${oldest} (window of ${window} blocks)`)
}

/** geth decodeHash (internal/ethapi/api.go): optional 0x, odd length padded, at most 32 bytes; errors are -32000. */
function decodeHash(input: string): { hash: Uint8Array; echo: string } {
  let s = input.startsWith('0x') || input.startsWith('0X') ? input.slice(2) : input
  if (s.length % 2 === 1) s = '0' + s
  if (!/^[0-9a-fA-F]*$/.test(s)) throw new EngineError('hex string invalid')
  if (s.length > 64) throw new EngineError('hex string too long, want at most 32 bytes')
  const hash = Buffer.from(s.padStart(64, '0'), 'hex')
  // A 32-byte key is echoed as given (lower case); a shorter one as a QUANTITY (geth GetProof).
  const echo = s.length === 64 ? '0x' + s.toLowerCase() : '0x' + BigInt('0x' + (s || '0')).toString(16)
  return { hash: new Uint8Array(hash), echo }
}

function proofNodes(hexNodes: readonly string[]): Uint8Array[] {
  return hexNodes.map((h) => hexToBytes(h as `0x${string}`)).filter((node, i) => i === 0 || node.length >= 32)
}
