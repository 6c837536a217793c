import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeUTXO } from '../../../src/avalanche/avax.js'
import { CodecReader, CodecWriter, MAX_CODEC_SIZE, marshal, unmarshal } from '../../../src/avalanche/codec.js'
import { CodecError } from '../../../src/avalanche/errors.js'
import { decodeAtomicTxBatch, decodeUnsignedTx, encodeTx, parseTx } from '../../../src/atomic/tx.js'
import { bytes } from '../../helpers/bytes.js'

const vectors = JSON.parse(readFileSync(new URL('../../fixtures/avalanche/atomic-txs.json', import.meta.url), 'utf8'))
const importTx = bytes(vectors.importTxs[0].expected.signedTxHex) // 307 bytes, field by field in its expected.layout
const exportTx = bytes(vectors.exportTxs[0].expected.signedTxHex)
const utxoBytes = bytes(vectors.importTxs[0].inputs.utxos[0].bytesHex)
const INSUFFICIENT = 'packer has insufficient length for input'

function patched(src: Uint8Array, at: number, u32: number): Uint8Array {
  const out = src.slice()
  new DataView(out.buffer).setUint32(at, u32)
  return out
}

// Offsets in the import vector: 2 version, 6 networkID, 10 blockchainID, 42 sourceChain, 74 input count,
// 78 utxo txID, 110 index, 114 assetID, 146 in type ID, 150 amount, 158 sigIndices count, 162 index, 166 outs count.
describe('codec framing (codec/manager.go)', () => {
  it('refuses short, unknown-version, oversized and trailing input', () => {
    expect(() => parseTx(new Uint8Array(0))).toThrow("couldn't unpack codec version")
    expect(() => parseTx(Uint8Array.of(0))).toThrow("couldn't unpack codec version")
    expect(() => parseTx(Uint8Array.of(0, 1, 0, 0, 0, 0))).toThrow(/^unknown codec version$/)
    expect(() => parseTx(new Uint8Array(MAX_CODEC_SIZE + 1))).toThrow(`byte array exceeds maximum length: ${MAX_CODEC_SIZE + 1} > 262144`)
    expect(() => parseTx(Uint8Array.of(...importTx, 0))).toThrow('trailing buffer space: read 307 provided 308')
    expect(() => parseTx(Uint8Array.of(...importTx, 0))).toThrow(CodecError)
  })

  it('names the Go kind that ran out of bytes', () => {
    expect(() => parseTx(importTx.subarray(0, 4))).toThrow(`couldn't unmarshal interface: ${INSUFFICIENT}`)
    expect(() => parseTx(importTx.subarray(0, 8))).toThrow(`couldn't unmarshal uint32: ${INSUFFICIENT}`)
    expect(() => parseTx(importTx.subarray(0, 20))).toThrow(new RegExp(`^${INSUFFICIENT}$`))
    expect(() => parseTx(importTx.subarray(0, 75))).toThrow(`couldn't unmarshal slice: ${INSUFFICIENT}`)
    expect(() => parseTx(importTx.subarray(0, 153))).toThrow(`couldn't unmarshal uint64: ${INSUFFICIENT}`)
    expect(() => parseTx(importTx.subarray(0, 300))).toThrow(new RegExp(`^${INSUFFICIENT}$`)) // inside a signature
    for (let n = 0; n < importTx.length; n++) expect(() => parseTx(importTx.subarray(0, n))).toThrow(CodecError)
  })

  it('refuses unknown and skipped type IDs', () => {
    for (const id of [2, 3, 4, 6, 8, 12, 0xffffffff]) {
      expect(() => parseTx(patched(importTx, 2, id))).toThrow(`couldn't unmarshal interface: unknown type ID ${id}`)
    }
    expect(() => parseTx(patched(importTx, 146, 8))).toThrow('unknown type ID 8')
  })

  it('refuses registered types behind the wrong interface', () => {
    expect(() => parseTx(patched(importTx, 2, 5))).toThrow("couldn't unmarshal interface: *secp256k1fx.TransferInput does not implement interface atomic.UnsignedAtomicTx")
    expect(() => parseTx(patched(importTx, 146, 7))).toThrow("couldn't unmarshal interface: *secp256k1fx.TransferOutput does not implement interface avax.TransferableIn")
    expect(() => parseTx(patched(importTx, 234, 0))).toThrow("couldn't unmarshal interface: *atomic.UnsignedImportTx does not implement interface verify.Verifiable")
    expect(() => decodeUTXO(patched(utxoBytes, 70, 11))).toThrow("couldn't unmarshal interface: *secp256k1fx.OutputOwners does not implement interface verify.State")
    const exportOutTypeAt = 2 + 4 + 4 + 32 + 32 + 4 + 68 + 4 + 32
    expect(() => parseTx(patched(exportTx, exportOutTypeAt, 5))).toThrow("couldn't unmarshal interface: *secp256k1fx.TransferInput does not implement interface avax.TransferableOut")
  })

  it('accepts any verify.Verifiable as a credential, as avalanchego does', () => {
    // credential slot (type 9, 1 sig) replaced by an Input (type 10) with one sig index: 4+4+4 bytes
    const body = importTx.slice(0, 234)
    const tx = Uint8Array.of(...body, 0, 0, 0, 10, 0, 0, 0, 1, 0, 0, 0, 7)
    const parsed = parseTx(tx)
    expect(parsed.tx.creds[0]).toEqual({ typeID: 10, sigIndices: [7] })
    expect(encodeTx(parsed.tx)).toEqual(tx)
  })

  it('bounds slice counts', () => {
    expect(() => parseTx(patched(importTx, 74, 0xffffffff))).toThrow('max slice length exceeded; array length, 4294967295, exceeds maximum length, 2147483647')
    expect(() => parseTx(patched(importTx, 74, 0x7fffffff))).toThrow(CodecError)
    expect(() => parseTx(patched(importTx, 230, 2))).toThrow(CodecError) // two credentials announced, one present
    // 3 sig indices swallow the outs count and an address word; the next word becomes the outs count
    expect(() => parseTx(patched(importTx, 158, 3))).toThrow('max slice length exceeded; array length, 3974252994, exceeds maximum length, 2147483647')
  })

  it('decodes an unsigned tx alone and refuses a signed one as trailing bytes', () => {
    const unsigned = bytes(vectors.importTxs[0].expected.unsignedTxHex)
    expect(decodeUnsignedTx(unsigned).typeID).toBe(0)
    expect(() => decodeUnsignedTx(importTx)).toThrow('trailing buffer space: read 230 provided 307')
  })

  it('wraps batch errors as coreth does', () => {
    expect(decodeAtomicTxBatch(new Uint8Array(0))).toEqual([])
    expect(() => decodeAtomicTxBatch(Uint8Array.of(0, 0, 0, 0, 0, 0))).toThrow('cannot build a block with non-empty extra data and zero atomic transactions')
    expect(() => decodeAtomicTxBatch(Uint8Array.of(0, 0, 0, 0, 0, 1))).toThrow(`failed to unmarshal atomic tx (AP5) due to couldn't unmarshal interface: ${INSUFFICIENT}`)
  })
})

describe('CodecReader / CodecWriter', () => {
  it('round-trips every width big-endian', () => {
    const data = marshal((w) =>
      w
        .u8(0xab)
        .u16(0x1234)
        .u32(0xdeadbeef)
        .u64(0x0102030405060708n)
        .fixed(Uint8Array.of(9, 9), 2)
        .slice([1, 2], (e, v) => e.u32(v)),
    )
    expect(Buffer.from(data).toString('hex')).toBe('0000ab1234deadbeef01020304050607080909000000020000000100000002')
    const back = unmarshal(data, (r) => [r.u8(), r.u16(), r.u32(), r.u64(), [...r.fixed(2)], r.slice((e) => e.u32())])
    expect(back).toEqual([0xab, 0x1234, 0xdeadbeef, 0x0102030405060708n, [9, 9], [1, 2]])
    expect(new CodecReader(Uint8Array.of(1)).remaining).toBe(1)
  })

  it('refuses values that do not fit', () => {
    expect(() => new CodecWriter().u64(-1n)).toThrow(CodecError)
    expect(() => new CodecWriter().fixed(new Uint8Array(3), 32)).toThrow('expected 32 bytes but got 3')
    expect(() => new CodecWriter().fixed(new Uint8Array(MAX_CODEC_SIZE + 1), MAX_CODEC_SIZE + 1)).toThrow(INSUFFICIENT)
  })
})
