/**
 * The X-Chain (AVM) codec registry: vms/avm/txs/parser.go registers the five tx types, then each fx in the
 * X-Chain's order (secp256k1fx, nftfx, propertyfx; genesis/genesis.go FxIDs) registers its own types
 * (vms/{secp256k1fx,nftfx,propertyfx}/fx.go Initialize). Codec version 0, NewDefaultManager (256 KiB) for txs.
 */

/** Type IDs in registration order. */
export const AVM_TYPE_ID = {
  BaseTx: 0,
  CreateAssetTx: 1,
  OperationTx: 2,
  ImportTx: 3,
  ExportTx: 4,
  // secp256k1fx
  TransferInput: 5,
  MintOutput: 6,
  TransferOutput: 7,
  MintOperation: 8,
  Credential: 9,
  // nftfx
  NFTMintOutput: 10,
  NFTTransferOutput: 11,
  NFTMintOperation: 12,
  NFTTransferOperation: 13,
  NFTCredential: 14,
  // propertyfx
  PropertyMintOutput: 15,
  PropertyOwnedOutput: 16,
  PropertyMintOperation: 17,
  PropertyBurnOperation: 18,
  PropertyCredential: 19,
} as const
export type AVMTypeID = (typeof AVM_TYPE_ID)[keyof typeof AVM_TYPE_ID]

/** Go type names, for the codec's "does not implement interface" errors. */
export const AVM_GO_TYPE_NAMES: Readonly<Record<number, string>> = {
  0: '*txs.BaseTx',
  1: '*txs.CreateAssetTx',
  2: '*txs.OperationTx',
  3: '*txs.ImportTx',
  4: '*txs.ExportTx',
  5: '*secp256k1fx.TransferInput',
  6: '*secp256k1fx.MintOutput',
  7: '*secp256k1fx.TransferOutput',
  8: '*secp256k1fx.MintOperation',
  9: '*secp256k1fx.Credential',
  10: '*nftfx.MintOutput',
  11: '*nftfx.TransferOutput',
  12: '*nftfx.MintOperation',
  13: '*nftfx.TransferOperation',
  14: '*nftfx.Credential',
  15: '*propertyfx.MintOutput',
  16: '*propertyfx.OwnedOutput',
  17: '*propertyfx.MintOperation',
  18: '*propertyfx.BurnOperation',
  19: '*propertyfx.Credential',
}

/** The Go interfaces behind the interface-typed fields, with their registered implementors. */
export const AVM_INTERFACES = {
  unsignedTx: { name: 'txs.UnsignedTx', implementors: [0, 1, 2, 3, 4] },
  transferableIn: { name: 'avax.TransferableIn', implementors: [5] },
  transferableOut: { name: 'avax.TransferableOut', implementors: [7] },
  state: { name: 'verify.State', implementors: [6, 7, 10, 11, 15, 16] },
  /** fxs.FxCredential.Credential; the three fx credentials share secp256k1fx.Credential's layout. */
  credential: { name: 'verify.Verifiable', implementors: [9, 14, 19] },
} as const

/** The credential type IDs (same layout: a slice of 65-byte signatures). */
export type AVMCredentialTypeID = typeof AVM_TYPE_ID.Credential | typeof AVM_TYPE_ID.NFTCredential | typeof AVM_TYPE_ID.PropertyCredential
