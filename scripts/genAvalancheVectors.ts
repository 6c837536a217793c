/**
 * Generates test/fixtures/avalanche/atomic-txs.json: C-Chain ImportTx / ExportTx vectors built and
 * signed by AvalancheJS (`@avalabs/avalanchejs`, the devDependency, BSD-3-Clause) with fixed keys,
 * fixed fake UTXOs and fixed base fees. Deterministic (RFC 6979 signatures, no clock, no randomness):
 * rerunning reproduces the file byte for byte, and test/vectors/atomicTxs.test.ts checks that.
 *   npm run gen:vectors
 * Before writing it checks every tx against a field-by-field encoding written from the codec of
 * avalanchego (vms/components/avax, vms/secp256k1fx) and coreth (plugin/evm/atomic), every signature
 * against its key, AvalancheJS's own decode/re-encode round trip, and costCorethTx against coreth's
 * gas formula.
 */
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { SigningKey, getAddress } from 'ethers'
import { avalanchejs, type Context, type ExportTx, type Id as IdValue, type ImportTx, type TransferOutput, type UnsignedTx, type Utxo } from './avalanchejs.js'

const { BigIntPr, Id, Int, OutputOwners, Utxo: UtxoClass, addTxSignatures, avaxSerial, evm, secp256k1, utils } = avalanchejs

export const VECTORS_FILE = 'test/fixtures/avalanche/atomic-txs.json'
const LIBRARY = '@avalabs/avalanchejs@5.2.0'
const NANO = 1_000_000_000n

type Net = 'local' | 'fuji' | 'mainnet'
type KeyName = 'ewoq' | 'alice' | 'bob'
type Alias = 'X' | 'P'
type Json = Record<string, unknown>

// Network constants (avalanchego: genesis/genesis_test.go TestVMGenesis and TestAVAXAssetID, utils/constants/network_ids.go; coreth: params/config.go).
const NETWORKS: Record<Net, { networkID: number; hrp: string; xBlockchainID: string; pBlockchainID: string; cBlockchainID: string; avaxAssetID: string; evmChainID: number }> = {
  local: {
    networkID: 12345,
    hrp: 'local',
    xBlockchainID: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
    pBlockchainID: '11111111111111111111111111111111LpoYY',
    cBlockchainID: '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC',
    avaxAssetID: '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe',
    evmChainID: 43112,
  },
  fuji: {
    networkID: 5,
    hrp: 'fuji',
    xBlockchainID: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    pBlockchainID: '11111111111111111111111111111111LpoYY',
    cBlockchainID: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
    avaxAssetID: 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
    evmChainID: 43113,
  },
  mainnet: {
    networkID: 1,
    hrp: 'avax',
    xBlockchainID: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    pBlockchainID: '11111111111111111111111111111111LpoYY',
    cBlockchainID: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    avaxAssetID: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
    evmChainID: 43114,
  },
}

const sha256 = (b: Uint8Array | string): Uint8Array => new Uint8Array(createHash('sha256').update(b).digest())
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const cb58 = (b: Uint8Array): string => utils.base58check.encode(b)
const apiHex = (b: Uint8Array): string => '0x' + hex(b) + hex(sha256(b).slice(-4))
const u16 = (n: number): string => n.toString(16).padStart(4, '0')
const u32 = (n: number): string => n.toString(16).padStart(8, '0')
const u64 = (n: bigint): string => n.toString(16).padStart(16, '0')
const idHex = (cb58ID: string): string => hex(Id.fromString(cb58ID).toBytes())
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b

// ---- keys ----

const KEY_SOURCES: Record<KeyName, { privateKey: Uint8Array; derivation: string }> = {
  ewoq: {
    privateKey: utils.hexToBuffer('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027'),
    derivation: 'well-known avalanchego "ewoq" test key (funded in the default local genesis)',
  },
  alice: { privateKey: sha256('vectors/key/alice'), derivation: 'privateKey = sha256(ascii "vectors/key/alice")' },
  bob: { privateKey: sha256('vectors/key/bob'), derivation: 'privateKey = sha256(ascii "vectors/key/bob")' },
}

interface Key {
  name: KeyName
  privateKey: Uint8Array
  short: Uint8Array
  eth: Uint8Array
  ethAddress: string
  json: Json
}

function makeKey(name: KeyName): Key {
  const { privateKey, derivation } = KEY_SOURCES[name]
  const compressed = secp256k1.getPublicKey(privateKey)
  const uncompressed = uncompress(compressed)
  const short = secp256k1.publicKeyBytesToAddress(compressed)
  const eth = secp256k1.publicKeyToEthAddress(uncompressed)
  const ethAddress = getAddress('0x' + hex(eth))
  const bech32: Json = {}
  for (const net of Object.keys(NETWORKS) as Net[]) {
    const hrp = NETWORKS[net].hrp
    bech32[net] = { X: utils.format('X', hrp, short), P: utils.format('P', hrp, short), C: utils.format('C', hrp, short) }
  }
  const json = {
    name,
    privateKeyHex: hex(privateKey),
    privateKeyCB58: 'PrivateKey-' + cb58(privateKey),
    publicKeyCompressedHex: hex(compressed),
    publicKeyUncompressedHex: hex(uncompressed),
    shortAddressHex: hex(short),
    shortAddressCB58: cb58(short),
    ethAddress,
    bech32,
    derivation,
  }
  return { name, privateKey, short, eth, ethAddress, json }
}

/** The 65-byte (0x04 ‖ x ‖ y) form of a public key; AvalancheJS exposes only the compressed one. */
const uncompress = (key: Uint8Array): Uint8Array => utils.hexToBuffer(SigningKey.computePublicKey(key, false))

// ---- the shared-memory side: UTXOs, input IDs ----

/** InputID of a UTXO, its shared-memory key: sha256(u64 outputIndex ‖ txID) (avalanchego: ids/id.go Prefix). */
const inputID = (txID: Uint8Array, index: number): Uint8Array => sha256(Buffer.concat([Buffer.from(u64(BigInt(index)), 'hex'), txID]))

function transferOutputLayout(prefix: string, out: TransferOutput): { field: string; hex: string }[] {
  const owners = out.getOwners()
  return [
    { field: `${prefix}typeID(TransferOutput=7)`, hex: u32(7) },
    { field: `${prefix}amount`, hex: u64(out.amount()) },
    { field: `${prefix}locktime`, hex: u64(out.getLocktime()) },
    { field: `${prefix}threshold`, hex: u32(out.getThreshold()) },
    { field: `${prefix}addresses.len`, hex: u32(owners.length) },
    ...owners.map((a, i) => ({ field: `${prefix}addresses[${i}]`, hex: hex(a) })),
  ]
}

/** Codec bytes (version included) of a UTXO, as avax.getUTXOs returns them. */
function utxoBytes(utxo: Utxo): Uint8Array {
  return new Uint8Array([0, 0, ...utxo.toBytes(utils.getManagerForVM('EVM').getDefaultCodec())])
}

function utxoLayout(utxo: Utxo): { field: string; hex: string }[] {
  return [
    { field: 'codecVersion', hex: u16(0) },
    { field: 'utxoID.txID', hex: hex(utxo.utxoId.txID.toBytes()) },
    { field: 'utxoID.outputIndex', hex: u32(utxo.utxoId.outputIdx.value()) },
    { field: 'assetID', hex: hex(utxo.assetId.toBytes()) },
    ...transferOutputLayout('out.', utxo.output as TransferOutput),
  ]
}

// ---- the cases ----

interface FakeUTXO {
  /** txID = sha256(ascii "vectors/utxo-tx/<seed>"). */
  seed: string
  outputIndex: number
  amountNAVAX: bigint
  owners: KeyName[]
  threshold: number
}

interface ImportCase {
  id: string
  description: string
  network: Net
  source: Alias
  to: KeyName
  signers: KeyName[]
  baseFeeWei: bigint
  utxos: FakeUTXO[]
}
interface ExportCase {
  id: string
  description: string
  network: Net
  destination: Alias
  from: KeyName
  to: KeyName[]
  amountNAVAX: bigint
  nonce: bigint
  options: { threshold: number; locktime: bigint } | null
  baseFeeWei: bigint
}

const GWEI = NANO
const single = (seed: string, amountNAVAX: bigint, owner: KeyName, outputIndex = 0): FakeUTXO => ({ seed, outputIndex, amountNAVAX, owners: [owner], threshold: 1 })

const IMPORTS: ImportCase[] = [
  {
    id: 'import-x-single-utxo-local',
    network: 'local',
    source: 'X',
    to: 'ewoq',
    signers: ['ewoq'],
    baseFeeWei: 25n * GWEI,
    utxos: [single('x-1', 50n * NANO, 'ewoq')],
    description: "Local network: import one 50 AVAX UTXO exported from the X-Chain to ewoq's own C-Chain address; base fee 25 gwei (AP4/AP5 minimum).",
  },
  {
    id: 'import-p-single-utxo-local',
    network: 'local',
    source: 'P',
    to: 'ewoq',
    signers: ['ewoq'],
    baseFeeWei: GWEI,
    utxos: [single('p-1', 2n * NANO, 'ewoq', 3)],
    description: 'Local network: import one 2 AVAX UTXO exported from the P-Chain; base fee 1 gwei (Etna minimum).',
  },
  {
    id: 'import-x-two-utxos-two-signers-local',
    network: 'local',
    source: 'X',
    to: 'bob',
    signers: ['alice', 'bob'],
    baseFeeWei: 25n * GWEI,
    utxos: [single('x-2a', NANO, 'alice', 1), single('x-2b', 3_000_000_123n, 'bob')],
    description: "Local network: two UTXOs owned by different keys (alice, bob) imported to bob's C address; inputs sorted by (txID, outputIndex); one credential per input.",
  },
  {
    id: 'import-x-multisig-2of2-local',
    network: 'local',
    source: 'X',
    to: 'alice',
    signers: ['ewoq', 'alice'],
    baseFeeWei: 25n * GWEI,
    utxos: [{ seed: 'x-ms', outputIndex: 2, amountNAVAX: 10n * NANO, owners: ['ewoq', 'alice'], threshold: 2 }],
    description: 'Local network: one UTXO with threshold 2 over [ewoq, alice] (addresses sorted); one credential holding two signatures in sigIndices order.',
  },
  {
    id: 'import-x-single-utxo-fuji',
    network: 'fuji',
    source: 'X',
    to: 'alice',
    signers: ['alice'],
    baseFeeWei: 25n * GWEI,
    utxos: [single('fuji-x-1', 5n * NANO, 'alice')],
    description: 'Fuji network (HRP fuji, networkID 5): single UTXO import; base fee 25 gwei.',
  },
  {
    id: 'import-x-single-utxo-mainnet',
    network: 'mainnet',
    source: 'X',
    to: 'bob',
    signers: ['bob'],
    baseFeeWei: 25n * GWEI,
    utxos: [single('main-x-1', 7n * NANO, 'bob')],
    description: 'Mainnet (HRP avax, networkID 1): single UTXO import; base fee 25 gwei.',
  },
]

const EXPORTS: ExportCase[] = [
  {
    id: 'export-to-x-local',
    network: 'local',
    destination: 'X',
    from: 'ewoq',
    to: ['ewoq'],
    amountNAVAX: NANO,
    nonce: 0n,
    options: null,
    baseFeeWei: 25n * GWEI,
    description: 'Local network: ewoq exports 1 AVAX from the C-Chain to its own X-Chain address; nonce 0; base fee 25 gwei.',
  },
  {
    id: 'export-to-p-local',
    network: 'local',
    destination: 'P',
    from: 'ewoq',
    to: ['ewoq'],
    amountNAVAX: 2_500_000_000n,
    nonce: 5n,
    options: null,
    baseFeeWei: GWEI,
    description: 'Local network: ewoq exports 2.5 AVAX to its P-Chain address; nonce 5; base fee 1 gwei.',
  },
  {
    id: 'export-to-x-multiowner-local',
    network: 'local',
    destination: 'X',
    from: 'alice',
    to: ['alice', 'bob'],
    amountNAVAX: 750_000_000n,
    nonce: 42n,
    options: { threshold: 1, locktime: 0n },
    baseFeeWei: 25n * GWEI,
    description: 'Local network: alice exports 0.75 AVAX to an X output owned by [alice, bob] (sorted) with threshold 1 and locktime 0; nonce 42.',
  },
  {
    id: 'export-to-x-min-basefee-local',
    network: 'local',
    destination: 'X',
    from: 'bob',
    to: ['bob'],
    amountNAVAX: 100_000_000n,
    nonce: 1n,
    options: null,
    baseFeeWei: 1n,
    description:
      'Local network after Fortuna (ACP-176): eth_baseFee can be as low as 1 wei. AvalancheJS takes the base fee in whole nAVAX, so the caller must round UP (1 wei -> 1 nAVAX); the tx then burns gas*1 nAVAX while coreth only requires ceil(gas*1/1e9)=1 nAVAX (over-payment is allowed).',
  },
  {
    id: 'export-to-p-fuji',
    network: 'fuji',
    destination: 'P',
    from: 'alice',
    to: ['alice'],
    amountNAVAX: NANO,
    nonce: 3n,
    options: null,
    baseFeeWei: 25n * GWEI,
    description: 'Fuji network: alice exports 1 AVAX to P; nonce 3; base fee 25 gwei.',
  },
]

// ---- building and checking one tx ----

type Layout = { field: string; hex: string }[]

function contextOf(net: Net): Context {
  const n = NETWORKS[net]
  return {
    networkID: n.networkID,
    hrp: n.hrp,
    xBlockchainID: n.xBlockchainID,
    pBlockchainID: n.pBlockchainID,
    cBlockchainID: n.cBlockchainID,
    avaxAssetID: n.avaxAssetID,
    baseTxFee: 1_000_000n,
    createAssetTxFee: 10_000_000n,
    platformFeeConfig: {} as unknown,
  }
}

function chainID(net: Net, alias: Alias): string {
  return alias === 'X' ? NETWORKS[net].xBlockchainID : NETWORKS[net].pBlockchainID
}

function commonHeader(v: { id: string; description: string; network: Net }, kind: string): Json {
  const n = NETWORKS[v.network]
  return {
    id: v.id,
    kind,
    description: v.description,
    network: { name: v.network, networkID: n.networkID, hrp: n.hrp, evmChainID: n.evmChainID },
    chainIDs: { X: n.xBlockchainID, P: n.pBlockchainID, C: n.cBlockchainID },
    avaxAssetID: n.avaxAssetID,
  }
}

/** The fields before the inputs: codec version, type ID, network, chain, other chain, input count. */
function headerLayout(type: string, tx: ImportTx | ExportTx, [chainField, chain]: [string, IdValue], [inputsField, inputs]: [string, number]): Layout {
  return [
    { field: 'codecVersion', hex: u16(0) },
    { field: `typeID(${type})`, hex: u32(Number(type.split('=')[1])) },
    { field: 'networkID', hex: u32(tx.networkId.value()) },
    { field: 'blockchainID', hex: hex(tx.blockchainId.toBytes()) },
    { field: chainField, hex: hex(chain.toBytes()) },
    { field: `${inputsField}.len`, hex: u32(inputs) },
  ]
}

/** Signs, then checks the bytes, signatures and fee; returns the fields every tx vector shares. */
async function signAndCheck(
  unsignedTx: UnsignedTx,
  signers: Key[],
  bodyLayout: Layout,
): Promise<{ signed: Json; tail: Json; txID: Uint8Array; numSignatures: number; cost: bigint; unsignedLength: number }> {
  await addTxSignatures({ unsignedTx, privateKeys: signers.map((k) => k.privateKey) })
  if (!unsignedTx.hasAllSignatures()) throw new Error('AvalancheJS left a signature missing')
  const unsignedBytes = unsignedTx.toBytes()
  const hash = sha256(unsignedBytes)
  const signedTx = unsignedTx.getSignedTx()
  const signedBytes = signedTx.toBytes()
  const credentials = signedTx.getCredentials().map((c) => c.toJSON().map((s) => s.toBytes()))
  const credentialLayout: Layout = [{ field: 'credentials.len', hex: u32(credentials.length) }]
  credentials.forEach((sigs, i) => {
    credentialLayout.push({ field: `credentials[${i}].typeID(Credential=9)`, hex: u32(9) }, { field: `credentials[${i}].sigs.len`, hex: u32(sigs.length) })
    sigs.forEach((sig, j) => credentialLayout.push({ field: `credentials[${i}].sigs[${j}](r||s||v)`, hex: hex(sig) }))
  })
  const layout = [...bodyLayout, ...credentialLayout]
  // The independent encoding: the layout written field by field must be AvalancheJS's bytes.
  if (bodyLayout.map((s) => s.hex).join('') !== hex(unsignedBytes)) throw new Error('unsigned bytes differ from the field-by-field encoding')
  if (layout.map((s) => s.hex).join('') !== hex(signedBytes)) throw new Error('signed bytes differ from the field-by-field encoding')
  const signerKeys = new Set(signers.map((k) => hex(secp256k1.getPublicKey(k.privateKey))))
  const credentialJson = credentials.map((sigs) => {
    const recovered = sigs.map((sig) => {
      // 65 bytes r‖s‖v, v in {0,1}, low-S (avalanchego: utils/crypto/secp256k1).
      if (sig.length !== 65 || sig[64]! > 1 || BigInt('0x' + hex(sig.slice(32, 64))) > SECP256K1_N / 2n) throw new Error(`malformed signature ${hex(sig)}`)
      const pub = hex(compress(secp256k1.recoverPublicKey(hash, sig)))
      if (!signerKeys.has(pub)) throw new Error(`signature ${hex(sig)} recovers ${pub}, not a signer`)
      return pub
    })
    return { signaturesHex: sigs.map(hex), recoveredPublicKeys: recovered }
  })
  const codec = utils.getManagerForVM('EVM')
  const reparsed = codec.unpack(signedBytes, avaxSerial.SignedTx)
  if (hex(reparsed.toBytes()) !== hex(signedBytes)) throw new Error('AvalancheJS decode/re-encode round trip differs')
  const txID = sha256(signedBytes)
  const numSignatures = credentials.reduce((n, sigs) => n + sigs.length, 0)
  const cost = utils.costCorethTx(unsignedTx)
  if (cost !== BigInt(unsignedBytes.length) + 1000n * BigInt(numSignatures) + 10_000n) throw new Error(`costCorethTx ${cost} differs from coreth's gas formula`)
  return {
    signed: {
      unsignedTxHex: hex(unsignedBytes),
      unsignedTxByteLength: unsignedBytes.length,
      signingHashHex: hex(hash),
      credentials: credentialJson,
      signedTxHex: hex(signedBytes),
      signedTxByteLength: signedBytes.length,
      signedTxApiHex: apiHex(signedBytes),
      txID: cb58(txID),
      txIDHex: hex(txID),
      layout,
    },
    tail: {
      issueTxRequest: { jsonrpc: '2.0', id: 1, method: 'avax.issueTx', params: { tx: apiHex(signedBytes), encoding: 'hex' } },
      issueTxResult: { txID: cb58(txID) },
    },
    txID,
    numSignatures,
    cost,
    unsignedLength: unsignedBytes.length,
  }
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const compress = (key: Uint8Array): Uint8Array => (key.length === 33 ? key : utils.hexToBuffer(SigningKey.computePublicKey(key, true)))

/** coreth's fee check (plugin/evm/atomic: gas = bytes + 1000 per signature + 10000 since AP5; fee = ceil(gas · baseFee / 1e9)). */
function gasJson(unsignedLength: number, numSignatures: number, cost: bigint, baseFeeWei: bigint, burnedNAVAX: bigint): Json {
  const gasUsed = BigInt(unsignedLength) + 1000n * BigInt(numSignatures) + 10_000n
  const required = ceilDiv(gasUsed * baseFeeWei, NANO)
  if (burnedNAVAX < required) throw new Error(`burns ${burnedNAVAX} nAVAX, coreth requires ${required}`)
  return {
    rule: 'gas = len(unsignedTxBytes) + 1000*numSignatures + 10000 (AP5+); fee(nAVAX) = ceil(gas * baseFeeWei / 1e9)',
    bytesGas: unsignedLength,
    numSignatures,
    signatureGas: String(1000 * numSignatures),
    fixedGas: '10000',
    gasUsed: String(gasUsed),
    baseFeeWei: String(baseFeeWei),
    requiredFeeNAVAX: String(required),
    burnedNAVAX: String(burnedNAVAX),
    burnedWei: String(burnedNAVAX * NANO),
    overpaidNAVAX: String(burnedNAVAX - required),
    avalanchejsCostCorethTx: String(cost),
  }
}

async function importVector(c: ImportCase, keys: Record<KeyName, Key>): Promise<Json> {
  const net = NETWORKS[c.network]
  const sourceChain = chainID(c.network, c.source)
  const utxos = c.utxos.map((u) => {
    const txID = sha256(`vectors/utxo-tx/${u.seed}`)
    const owners = OutputOwners.fromNative(
      u.owners.map((k) => keys[k].short),
      0n,
      u.threshold,
    )
    const utxo = new UtxoClass(new avaxSerial.UTXOID(new Id(txID), new Int(u.outputIndex)), Id.fromString(net.avaxAssetID), new avalanchejs.TransferOutput(new BigIntPr(u.amountNAVAX), owners))
    return { u, txID, utxo }
  })
  const utxoJson = utxos.map(({ u, txID, utxo }) => {
    const bytes = utxoBytes(utxo)
    const layout = utxoLayout(utxo)
    if (layout.map((s) => s.hex).join('') !== hex(bytes)) throw new Error(`UTXO ${u.seed}: bytes differ from the field-by-field encoding`)
    const owners = (utxo.output as TransferOutput).getOwners()
    return {
      utxoID: `${cb58(txID)}:${u.outputIndex}`,
      txID: cb58(txID),
      txIDHex: hex(txID),
      outputIndex: u.outputIndex,
      inputIDHex: hex(inputID(txID, u.outputIndex)),
      inputIDCB58: cb58(inputID(txID, u.outputIndex)),
      assetID: net.avaxAssetID,
      amountNAVAX: String(u.amountNAVAX),
      locktime: '0',
      threshold: u.threshold,
      ownerKeys: u.owners,
      addressesHex: owners.map(hex),
      addressesX: owners.map((a) => utils.format('X', net.hrp, a)),
      bytesHex: hex(bytes),
      apiHex: apiHex(bytes),
      layout,
    }
  })
  const baseFeeNAVAX = ceilDiv(c.baseFeeWei, NANO)
  const to = keys[c.to]
  const signers = c.signers.map((k) => keys[k])
  const unsignedTx = evm.newImportTxFromBaseFee(
    contextOf(c.network),
    to.eth,
    signers.map((k) => k.short),
    utxos.map((x) => x.utxo),
    sourceChain,
    baseFeeNAVAX,
  )
  const tx = unsignedTx.getTx() as ImportTx
  const body = headerLayout('UnsignedImportTx=0', tx, ['sourceChain', tx.sourceChain], ['importedInputs', tx.importedInputs.length])
  tx.importedInputs.forEach((input, i) => {
    const p = `importedInputs[${i}].`
    const sigIndices = input.sigIndicies()
    body.push(
      { field: `${p}utxoID.txID`, hex: hex(input.utxoID.txID.toBytes()) },
      { field: `${p}utxoID.outputIndex`, hex: u32(input.utxoID.outputIdx.value()) },
      { field: `${p}assetID`, hex: hex(input.assetId.toBytes()) },
      { field: `${p}in.typeID(TransferInput=5)`, hex: u32(5) },
      { field: `${p}in.amount`, hex: u64(input.amount()) },
      { field: `${p}in.sigIndices.len`, hex: u32(sigIndices.length) },
      ...sigIndices.map((s, j) => ({ field: `${p}in.sigIndices[${j}]`, hex: u32(s) })),
    )
  })
  body.push({ field: 'outputs.len', hex: u32(tx.Outs.length) })
  tx.Outs.forEach((out, i) =>
    body.push(
      { field: `outputs[${i}].address`, hex: hex(out.address.toBytes()) },
      { field: `outputs[${i}].amount`, hex: u64(out.amount.value()) },
      { field: `outputs[${i}].assetID`, hex: hex(out.assetId.toBytes()) },
    ),
  )
  const s = await signAndCheck(unsignedTx, signers, body)
  const burned = tx.importedInputs.reduce((n, i) => n + i.amount(), 0n) - tx.Outs.reduce((n, o) => n + o.amount.value(), 0n)
  return {
    ...commonHeader(c, 'ImportTx'),
    inputs: {
      builder: 'evm.newImportTxFromBaseFee(context, toAddress, fromAddressesBytes, utxos, sourceChain, baseFee) + addTxSignatures',
      sourceChainAlias: c.source,
      sourceChain,
      toKey: c.to,
      toAddress: to.ethAddress,
      signerKeys: c.signers,
      fromAddressesBech32X: signers.map((k) => utils.format('X', net.hrp, k.short)),
      baseFeeWei: String(c.baseFeeWei),
      baseFeeNAVAXForAvalancheJS: String(baseFeeNAVAX),
      utxos: utxoJson,
      getUTXOsResponseExample: { numFetched: String(utxoJson.length), utxos: utxoJson.map((u) => u.apiHex), encoding: 'hex' },
    },
    expected: {
      ...s.signed,
      importedInputUTXOIDs: tx.importedInputs.map((i) => cb58(inputID(i.utxoID.txID.toBytes(), i.utxoID.outputIdx.value()))),
      evmOutputs: tx.Outs.map((o) => ({
        address: getAddress('0x' + hex(o.address.toBytes())),
        assetID: o.assetId.toString(),
        amountNAVAX: String(o.amount.value()),
        creditWei: String(o.amount.value() * NANO),
      })),
      gas: gasJson(s.unsignedLength, s.numSignatures, s.cost, c.baseFeeWei, burned),
      ...s.tail,
    },
  }
}

async function exportVector(c: ExportCase, keys: Record<KeyName, Key>): Promise<Json> {
  const net = NETWORKS[c.network]
  const destinationChain = chainID(c.network, c.destination)
  const baseFeeNAVAX = ceilDiv(c.baseFeeWei, NANO)
  const from = keys[c.from]
  const toAddresses = c.to.map((k) => utils.format(c.destination, net.hrp, keys[k].short))
  const unsignedTx = evm.newExportTxFromBaseFee(
    contextOf(c.network),
    baseFeeNAVAX,
    c.amountNAVAX,
    destinationChain,
    from.eth,
    toAddresses.map((a) => utils.bech32ToBytes(a)),
    c.nonce,
    undefined,
    c.options ?? undefined,
  )
  const tx = unsignedTx.getTx() as ExportTx
  const body = headerLayout('UnsignedExportTx=1', tx, ['destinationChain', tx.destinationChain], ['inputs', tx.ins.length])
  tx.ins.forEach((input, i) =>
    body.push(
      { field: `inputs[${i}].address`, hex: hex(input.address.toBytes()) },
      { field: `inputs[${i}].amount`, hex: u64(input.amount.value()) },
      { field: `inputs[${i}].assetID`, hex: hex(input.assetId.toBytes()) },
      { field: `inputs[${i}].nonce`, hex: u64(input.nonce.value()) },
    ),
  )
  body.push({ field: 'exportedOutputs.len', hex: u32(tx.exportedOutputs.length) })
  tx.exportedOutputs.forEach((out, i) =>
    body.push({ field: `exportedOutputs[${i}].assetID`, hex: hex(out.assetId.toBytes()) }, ...transferOutputLayout(`exportedOutputs[${i}].out.`, out.output as TransferOutput)),
  )
  const s = await signAndCheck(unsignedTx, [from], body)
  const burned = tx.ins.reduce((n, i) => n + i.amount.value(), 0n) - tx.exportedOutputs.reduce((n, o) => n + o.amount(), 0n)
  return {
    ...commonHeader(c, 'ExportTx'),
    inputs: {
      builder: 'evm.newExportTxFromBaseFee(context, baseFee, amount, destinationChain, fromAddress, toAddresses, nonce, assetId, options) + addTxSignatures',
      destinationChainAlias: c.destination,
      destinationChain,
      fromKey: c.from,
      fromAddress: from.ethAddress,
      toKeys: c.to,
      toAddresses,
      amountNAVAX: String(c.amountNAVAX),
      nonce: String(c.nonce),
      options: c.options === null ? null : { threshold: String(c.options.threshold), locktime: String(c.options.locktime) },
      baseFeeWei: String(c.baseFeeWei),
      baseFeeNAVAXForAvalancheJS: String(baseFeeNAVAX),
    },
    expected: {
      ...s.signed,
      evmInputs: tx.ins.map((i) => ({
        address: getAddress('0x' + hex(i.address.toBytes())),
        assetID: i.assetId.toString(),
        amountNAVAX: String(i.amount.value()),
        debitWei: String(i.amount.value() * NANO),
        requiredNonce: String(i.nonce.value()),
        nonceAfter: String(i.nonce.value() + 1n),
      })),
      // The conflict key of an EVM input: u64 nonce ‖ u32 20 ‖ address (coreth: plugin/evm/atomic/export_tx.go InputUTXOs).
      evmInputConflictIDsHex: tx.ins.map((i) => u64(i.nonce.value()) + u32(20) + hex(i.address.toBytes())),
      exportedUTXOs: tx.exportedOutputs.map((out, index) => {
        const utxo = new UtxoClass(new avaxSerial.UTXOID(new Id(s.txID), new Int(index)), out.assetId, out.output)
        const bytes = utxoBytes(utxo)
        const owners = (out.output as TransferOutput).getOwners()
        return {
          utxoID: `${cb58(s.txID)}:${index}`,
          inputIDHex: hex(inputID(s.txID, index)),
          inputIDCB58: cb58(inputID(s.txID, index)),
          traitsHex: owners.map(hex),
          addresses: owners.map((a) => utils.format(c.destination, net.hrp, a)),
          bytesHex: hex(bytes),
          apiHex: apiHex(bytes),
        }
      }),
      gas: gasJson(s.unsignedLength, s.numSignatures, s.cost, c.baseFeeWei, burned),
      ...s.tail,
    },
  }
}

// ---- the file ----

const CB58_EXAMPLES: [string, Uint8Array][] = [
  ['32 zero bytes (P-Chain ID / PrimaryNetworkID / ids.Empty)', new Uint8Array(32)],
  ['20 zero bytes (ids.ShortEmpty)', new Uint8Array(20)],
  ['empty byte string', new Uint8Array(0)],
  ['bytes 0x00..0x1f', Uint8Array.from({ length: 32 }, (_, i) => i)],
  ['ASCII "avalanche"', new TextEncoder().encode('avalanche')],
]

/** The whole vectors document, built in memory. */
export async function buildVectors(): Promise<Json> {
  const keys = Object.fromEntries((Object.keys(KEY_SOURCES) as KeyName[]).map((n) => [n, makeKey(n)])) as Record<KeyName, Key>
  const importTxs: Json[] = []
  for (const c of IMPORTS) importTxs.push(await importVector(c, keys))
  const exportTxs: Json[] = []
  for (const c of EXPORTS) exportTxs.push(await exportVector(c, keys))
  return {
    generator: {
      script: 'scripts/genAvalancheVectors.ts (npm run gen:vectors); calls only AvalancheJS builders, signer and codec',
      library: LIBRARY,
      note: 'Deterministic: re-running must reproduce this file byte for byte. Every tx was also encoded field by field (its layout) from the avalanchego/coreth codec and compared byte for byte.',
    },
    conventions: {
      integers: 'All amounts, nonces and fees are decimal strings. Amounts on the atomic side are nAVAX (9 decimals); *Wei fields are 18-decimal EVM units (1 nAVAX = 1e9 wei).',
      hex: '*Hex fields are lowercase hex without 0x. apiHex / *ApiHex fields are the Avalanche API "hex" encoding: 0x + hex(bytes || last4(sha256(bytes))).',
      txID: 'txID = CB58( sha256(signedTxBytes) ).',
      signingHash: 'Each signature is secp256k1 over sha256(unsignedTxBytes); 65 bytes r||s||v with v in {0,1} and low-S.',
      baseFeeNAVAXForAvalancheJS: 'AvalancheJS builders take the base fee in nAVAX per gas (wei/1e9, integer). coreth computes the required fee from the base fee in wei.',
    },
    networks: NETWORKS,
    keys: Object.values(keys).map((k) => k.json),
    encodings: {
      cb58: CB58_EXAMPLES.map(([label, b]) => ({
        label,
        hex: hex(b),
        cb58: cb58(b),
        checksumHex: hex(sha256(b).slice(-4)),
        apiHexWithChecksum: apiHex(b),
        apiHexNoChecksum: '0x' + hex(b),
      })),
      wellKnownIDs: (Object.keys(NETWORKS) as Net[]).flatMap((network) => {
        const n = NETWORKS[network]
        return (
          [
            ['X', n.xBlockchainID],
            ['P', n.pBlockchainID],
            ['C', n.cBlockchainID],
            ['AVAX', n.avaxAssetID],
          ] as const
        ).map(([what, id]) => ({ network, what, cb58: id, hex: idHex(id) }))
      }),
    },
    importTxs,
    exportTxs,
  }
}

/** The file's text: two-space JSON and a final newline. */
export async function vectorsText(): Promise<string> {
  return JSON.stringify(await buildVectors(), null, 2) + '\n'
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(join(process.cwd(), VECTORS_FILE), await vectorsText())
  console.log(`wrote ${VECTORS_FILE} (${IMPORTS.length} imports, ${EXPORTS.length} exports) with ${LIBRARY}`)
}
