import { bytesToHex } from '@ethereumjs/util'
import type { ChainStore } from '../../store/chainStore.js'
import type { TrieDB } from '../../store/trieDb.js'
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
    throw new Error(`data directory holds a chain with genesis ${bytesToHex(storedGenesis)}, not ${bytesToHex(block.hash)} of the configured genesis; use another --data-dir`)
  }
  // Written above, or on disk already (or pruned): the rebuilt nodes are not written again.
  trieDb.commitDrained(trieDb.drain())
  return block
}
