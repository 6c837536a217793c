import { createBlock, type Block as EnvBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { setLengthLeft } from '@ethereumjs/util'

/** The header fields an EVM environment takes from a block (or a call's block). */
export interface EnvFields {
  number: bigint
  timestamp: bigint
  gasLimit: bigint
  baseFee: bigint
  coinbase?: Uint8Array
  mixHash?: Uint8Array
}

const ZERO32 = new Uint8Array(32)

/** The same environment with BLOBBASEFEE answering `blobBaseFee` (geth BlockContext.BlobBaseFee set by a block override). */
export function withBlobBaseFee(env: EnvBlock, blobBaseFee: bigint): EnvBlock {
  const header = Object.create(env.header, { getBlobGasPrice: { value: () => blobBaseFee } }) as EnvBlock['header']
  return Object.create(env, { header: { value: header } }) as EnvBlock
}

/** The EVM's environment block for a header (BLOCKHASH, NUMBER, BASEFEE...), on `common` (Chain's header Common). */
export function envBlock(common: Common, fields: EnvFields & { coinbase: Uint8Array }): EnvBlock {
  return createBlock(
    {
      header: {
        number: fields.number,
        timestamp: fields.timestamp,
        gasLimit: fields.gasLimit,
        baseFeePerGas: fields.baseFee,
        coinbase: fields.coinbase,
        // coreth runs without a beacon chain: DIFFICULTY/PREVRANDAO reads the header difficulty, 1.
        mixHash: fields.mixHash ?? setLengthLeft(Uint8Array.of(1), 32),
        difficulty: 0n,
        excessBlobGas: 0n,
        blobGasUsed: 0n,
        parentBeaconBlockRoot: ZERO32,
      },
    },
    { common, skipConsensusFormatValidation: true },
  )
}

/** What BLOCKHASH reads (ethereumjs's blockchain interface, the part the EVM uses). */
export interface BlockHashSource {
  getBlock(n: number): Promise<{ hash(): Uint8Array }>
  putBlock(): Promise<void>
  shallowCopy(): BlockHashSource
}

/** BLOCKHASH over a chain's canonical hashes by number; a fork's blocks before N are the origin's. */
export function blockHashSource(chain: {
  blockByNumber(n: bigint): { hash: Uint8Array } | undefined
  readonly forkState?: { blockHash(n: bigint): Promise<Uint8Array | undefined> } | undefined
}): BlockHashSource {
  const source: BlockHashSource = {
    getBlock: async (n) => {
      const hash = chain.blockByNumber(BigInt(n))?.hash ?? (await chain.forkState?.blockHash(BigInt(n))) ?? new Uint8Array(32)
      return { hash: () => hash }
    },
    putBlock: async () => {},
    shallowCopy: () => source,
  }
  return source
}
