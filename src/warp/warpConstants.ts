/** The Warp precompile's address and Granite gas (coreth graft/coreth/precompile/contracts/warp/contract.go). */

/** The precompile's address. */
export const WARP_ADDRESS = '0200000000000000000000000000000000000005'
export const WARP_ADDRESS_BYTES = Uint8Array.from(Buffer.from(WARP_ADDRESS, 'hex'))

/** Granite's gas (coreth warp/contract.go); a local network runs Granite from genesis. */
export const WARP_GAS = {
  getBlockchainID: 200n,
  getVerifiedWarpMessageBase: 750n,
  perWarpMessageChunk: 512n,
  perWarpSigner: 250n,
  verifyPredicateBase: 125_000n,
  /** LogGas + 3 x LogTopicGas + 20,000 (signing) + 20,000 (a slot written). */
  sendWarpMessageBase: 41_500n,
  /** Per byte of the ABI input (selector excluded). */
  sendWarpMessagePerByte: 8n,
} as const
