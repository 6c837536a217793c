/**
 * `@avalabs/avalanchejs` with the types of the calls scripts/genAvalancheVectors.ts makes. The
 * package's declarations import their folders without file extensions, which TypeScript's NodeNext
 * resolution (tsconfig.json) cannot follow, so most of its exports arrive untyped; these interfaces
 * restate the few members used (AvalancheJS 5.2.0, src/ of ava-labs/avalanchejs).
 */
import * as lib from '@avalabs/avalanchejs'

export interface Id {
  toBytes(): Uint8Array
  toString(): string
}
interface IntValue {
  value(): number
}
interface BigIntValue {
  value(): bigint
}
interface Bytes {
  toBytes(): Uint8Array
}
export interface TransferOutput {
  amount(): bigint
  getLocktime(): bigint
  getThreshold(): number
  getOwners(): Uint8Array[]
}
interface UTXOID {
  txID: Id
  outputIdx: IntValue
}
export interface Utxo {
  utxoId: UTXOID
  assetId: Id
  output: unknown
  toBytes(codec: unknown): Uint8Array
}
export interface ImportTx {
  networkId: IntValue
  blockchainId: Id
  sourceChain: Id
  importedInputs: { utxoID: UTXOID; assetId: Id; amount(): bigint; sigIndicies(): number[] }[]
  Outs: { address: Bytes; amount: BigIntValue; assetId: Id }[]
}
export interface ExportTx {
  networkId: IntValue
  blockchainId: Id
  destinationChain: Id
  ins: { address: Bytes; amount: BigIntValue; assetId: Id; nonce: BigIntValue }[]
  exportedOutputs: { assetId: Id; output: unknown; amount(): bigint }[]
}
export interface UnsignedTx {
  toBytes(): Uint8Array
  getTx(): unknown
  hasAllSignatures(): boolean
  getSignedTx(): Bytes & { getCredentials(): { toJSON(): Bytes[] }[] }
}
export interface Context {
  networkID: number
  hrp: string
  xBlockchainID: string
  pBlockchainID: string
  cBlockchainID: string
  avaxAssetID: string
  baseTxFee: bigint
  createAssetTxFee: bigint
  platformFeeConfig: unknown
}

interface AvalancheJS {
  Id: { new (bytes: Uint8Array): Id; fromString(cb58: string): Id }
  Int: new (n: number) => IntValue
  BigIntPr: new (n: bigint) => BigIntValue
  OutputOwners: { fromNative(addresses: Uint8Array[], locktime: bigint, threshold: number): unknown }
  TransferOutput: new (amount: BigIntValue, owners: unknown) => TransferOutput
  Utxo: new (utxoID: UTXOID, assetID: Id, output: unknown) => Utxo
  avaxSerial: { UTXOID: new (txID: Id, outputIndex: IntValue) => UTXOID; SignedTx: unknown }
  addTxSignatures(args: { unsignedTx: UnsignedTx; privateKeys: Uint8Array[] }): Promise<void>
  evm: {
    newImportTxFromBaseFee(context: Context, toAddress: Uint8Array, fromAddresses: Uint8Array[], utxos: Utxo[], sourceChain: string, baseFee: bigint): UnsignedTx
    newExportTxFromBaseFee(
      context: Context,
      baseFee: bigint,
      amount: bigint,
      destinationChain: string,
      fromAddress: Uint8Array,
      toAddresses: Uint8Array[],
      nonce: bigint,
      assetID?: string,
      options?: { threshold: number; locktime: bigint },
    ): UnsignedTx
  }
  secp256k1: {
    getPublicKey(privateKey: Uint8Array): Uint8Array
    publicKeyBytesToAddress(publicKey: Uint8Array): Uint8Array
    publicKeyToEthAddress(publicKey: Uint8Array): Uint8Array
    recoverPublicKey(hash: Uint8Array, signature: Uint8Array): Uint8Array
  }
  utils: {
    base58check: { encode(bytes: Uint8Array): string }
    format(chainAlias: string, hrp: string, address: Uint8Array): string
    hexToBuffer(hex: string): Uint8Array
    bech32ToBytes(address: string): Uint8Array
    getManagerForVM(vm: 'EVM'): { getDefaultCodec(): unknown; unpack(bytes: Uint8Array, type: unknown): Bytes }
    costCorethTx(tx: UnsignedTx): bigint
  }
}

export const avalanchejs = lib as unknown as AvalancheJS
