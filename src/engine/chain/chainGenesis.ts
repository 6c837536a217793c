import { bytesToHex } from '@ethereumjs/util'
import type { ChainStore } from '../../store/chainStore.js'
import type { TrieDB } from '../../store/trieDb.js'
import { RLP } from '@ethereumjs/rlp'
import { type Block, encodeBlock } from './block.js'
import { encodeReceipts } from './receipt.js'

/**
 * The configured genesis block, its state built in `trieDb`'s pending writes: written when the
 * database has none, refused when it holds another chain's.
 */
export async function initGenesis(store: ChainStore, trieDb: TrieDB, block: Block, storedGenesis: Uint8Array | undefined): Promise<Block> {
  if (storedGenesis === undefined) {
    await store.writeBlock(
      {
        hash: block.hash,
        number: 0n,
        encodedBlock: encodeBlock(block.header, [], new Uint8Array()),
        encodedReceipts: encodeReceipts([]),
        bloom: block.header.bloom,
        txHashes: [],
        stateOps: trieDb.drain(),
      },
      { genesis: true },
    )
  } else if (bytesToHex(storedGenesis) !== bytesToHex(block.hash)) {
    const was = `data directory holds a chain with genesis ${bytesToHex(storedGenesis)}, not ${bytesToHex(block.hash)} of the configured genesis`
    if (block.header.helicon !== undefined && madeBeforeHelicon(store.readBlock(storedGenesis))) {
      throw new Error(
        `${was}: it was made before Helicon, and this node starts chains under Helicon (a new genesis header, docs/EVM.md "Helicon"); use another --data-dir, or set the chain config key "hardfork": "granite" to keep running it`,
      )
    }
    throw new Error(`${was}; use another --data-dir`)
  }
  // Written above, or on disk already (or pruned): the rebuilt nodes are not written again.
  trieDb.commitDrained(trieDb.drain())
  return block
}

/** Whether a stored genesis block's header is Granite's 24 fields (before Helicon's six more). */
function madeBeforeHelicon(encoded: Uint8Array | undefined): boolean {
  if (encoded === undefined) return false
  const [header] = RLP.decode(encoded) as unknown as [Uint8Array[]]
  return header.length < 30
}
