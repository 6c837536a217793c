import { encodeRlp, keccak256, toBeArray } from 'ethers'

/** Header fields of a block's JSON that are bytes (the rest are quantities). */
const BYTES = new Set(['parentHash', 'sha3Uncles', 'miner', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'logsBloom', 'extraData', 'mixHash', 'nonce', 'extDataHash', 'parentBeaconBlockRoot'])

/** geth's 15 header fields as a block's JSON names them, in RLP order. */
export const GETH_HEADER_KEYS = [
  'parentHash',
  'sha3Uncles',
  'miner',
  'stateRoot',
  'transactionsRoot',
  'receiptsRoot',
  'logsBloom',
  'difficulty',
  'number',
  'gasLimit',
  'gasUsed',
  'timestamp',
  'extraData',
  'mixHash',
  'nonce',
]

/** keccak256(rlp(header)) from a block's JSON, the fields `keys` in their order, encoded by ethers (not by the node). */
export function headerHashOf(block: Record<string, string>, keys: readonly string[]): string {
  return keccak256(encodeRlp(keys.map((k) => (BYTES.has(k) ? block[k]! : BigInt(block[k]!) === 0n ? '0x' : toBeArray(BigInt(block[k]!))))))
}
