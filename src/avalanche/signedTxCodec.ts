import { marshal, unmarshal, type CodecReader, type CodecWriter } from './codec.js'
import { recoverSigner, signHash } from './signature.js'
import { sha256 } from '../util/crypto.js'

/** A signed tx of a VM: its unsigned part and one credential per spent input. */
export interface SignedTx<U, C> {
  unsignedTx: U
  creds: C[]
}

/** A decoded signed tx with its byte forms and ID. */
export interface ParsedSignedTx<U, C> {
  readonly tx: SignedTx<U, C>
  /** version ‖ typeID ‖ unsigned fields: what the signatures sign (hashed) */
  readonly unsignedBytes: Uint8Array
  readonly signedBytes: Uint8Array
  /** sha256(signedBytes) */
  readonly id: Uint8Array
}

/** How one VM reads and writes its unsigned txs and credentials. */
export interface SignedTxLayout<U, C> {
  readUnsigned(r: CodecReader): U
  writeUnsigned(w: CodecWriter, utx: U): void
  readCred(r: CodecReader): C
  writeCred(w: CodecWriter, c: C): void
  /** A secp256k1fx credential holding these signatures. */
  credential(sigs: Uint8Array[]): C
  /** The signatures a credential holds. */
  signatures(c: C): Uint8Array[]
}

/**
 * The signed-tx plumbing every avalanchego VM shares (txs.Tx: Initialize, Sign): encodings,
 * parsing with the unsigned bytes kept, the ID, and SignSECP256K1Fx. The X and P chains differ
 * only in their layouts.
 */
export function signedTxCodec<U, C>(layout: SignedTxLayout<U, C>) {
  const encodeUnsigned = (utx: U): Uint8Array => marshal((w) => layout.writeUnsigned(w, utx))
  const decodeUnsigned = (bytes: Uint8Array): U => unmarshal(bytes, (r) => layout.readUnsigned(r))
  const encode = (tx: SignedTx<U, C>): Uint8Array =>
    marshal((w) => {
      layout.writeUnsigned(w, tx.unsignedTx)
      w.slice(tx.creds, (w2, c) => layout.writeCred(w2, c))
    })
  /** Decodes a signed tx (as issueTx does) and derives its unsigned bytes and ID. */
  const parse = (signedBytes: Uint8Array): ParsedSignedTx<U, C> => {
    let credsAt = 0
    const tx = unmarshal(signedBytes, (r) => {
      const unsignedTx = layout.readUnsigned(r)
      credsAt = r.position
      return { unsignedTx, creds: r.slice((r2) => layout.readCred(r2)) }
    })
    const bytes = signedBytes.slice()
    return { tx, unsignedBytes: bytes.slice(0, credsAt), signedBytes: bytes, id: sha256(bytes) }
  }
  /** Encodes a tx and derives its byte forms and ID. */
  const toParsed = (tx: SignedTx<U, C>): ParsedSignedTx<U, C> => {
    const signedBytes = encode(tx)
    return { tx, unsignedBytes: encodeUnsigned(tx.unsignedTx), signedBytes, id: sha256(signedBytes) }
  }
  /** One credential per spent input; `keys[i]` sign input i in sigIndices order, over sha256(unsigned bytes). */
  const sign = (utx: U, keys: readonly (readonly Uint8Array[])[]): ParsedSignedTx<U, C> => {
    const hash = sha256(encodeUnsigned(utx))
    return toParsed({ unsignedTx: utx, creds: keys.map((ks) => layout.credential(ks.map((k) => signHash(k, hash)))) })
  }
  /** The 20-byte short addresses that signed each credential, in order. */
  const credentialSigners = (tx: ParsedSignedTx<U, C>): Uint8Array[][] => {
    const hash = sha256(tx.unsignedBytes)
    return tx.tx.creds.map((c) => layout.signatures(c).map((sig) => recoverSigner(hash, sig).shortAddress))
  }
  return { encodeUnsigned, decodeUnsigned, encode, parse, toParsed, sign, credentialSigners }
}
