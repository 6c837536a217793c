import { createHash } from 'node:crypto'

/** Domain separator of extra EVM chains' IDs, so they never collide with another derivation. */
const DOMAIN = 'cchain-node/evm-chain/v1'

/**
 * JSON with object keys sorted and no whitespace (arrays keep their order): two genesis files that
 * differ only in layout or key order give the same text.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * The blockchain ID of an extra EVM chain: sha256(DOMAIN ‖ 0x00 ‖ networkID (u32 BE) ‖ canonical
 * genesis JSON). avalanchego takes a chain's ID from the P-Chain tx that created it, which embeds
 * the genesis bytes; here the genesis alone decides it, so an ID is stable across restarts and
 * machines and changes whenever the genesis content does (docs/CONFIG.md "Extra EVM chains").
 */
export function evmBlockchainID(networkID: number, genesisJson: unknown): Uint8Array {
  const net = Buffer.alloc(4)
  net.writeUInt32BE(networkID)
  return createHash('sha256').update(DOMAIN).update(Uint8Array.of(0)).update(net).update(canonicalJson(genesisJson)).digest()
}

/**
 * The subnet an extra EVM chain is the only chain of (the node validates it): sha256 of a domain
 * separator and the chain's blockchain ID, so it is stable and never another chain's (docs/WARP.md).
 * The C-Chain's subnet is the Primary Network's (32 zero bytes).
 */
export function evmSubnetID(blockchainID: Uint8Array): Uint8Array {
  return createHash('sha256').update('cchain-node/evm-subnet/v1').update(Uint8Array.of(0)).update(blockchainID).digest()
}
