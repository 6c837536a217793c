import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formatAddress } from '../../src/avalanche/address.js'
import { decodeUTXO, encodeUTXO, utxoIDToString, utxoInputID } from '../../src/avalanche/avax.js'
import { cb58Decode, cb58Encode } from '../../src/avalanche/cb58.js'
import { TYPE_ID } from '../../src/avalanche/codec.js'
import { decodeBytes, encodeBytes } from '../../src/avalanche/encoding.js'
import { burned, calculateDynamicFee, effectiveGasPrice, gasUsed } from '../../src/atomic/fees.js'
import { NETWORKS } from '../../src/avalanche/networks.js'
import { formatPrivateKey, parsePrivateKey } from '../../src/avalanche/privateKey.js'
import { ethAddress, publicKeyOf, recoverSigner, shortAddress, signHash, toChecksumAddress } from '../../src/avalanche/signature.js'
import { verifyCredentialCount, verifyEVMInputCredential, verifyFlow } from '../../src/atomic/spend.js'
import { verifySpend } from '../../src/avalanche/spend.js'
import { encodeAtomicTxBatch, decodeAtomicTxBatch, encodeTx, encodeUnsignedTx, parseTx, signingHash, toAtomicTx } from '../../src/atomic/tx.js'
import type { UnsignedExportTx, UnsignedImportTx } from '../../src/atomic/types.js'
import type { UTXO } from '../../src/avalanche/types.js'
import { inputUTXOs, verifyUnsignedTx } from '../../src/atomic/verify.js'
import { vectorsText } from '../../scripts/genAvalancheVectors.js'
import { bytes, hex } from '../helpers/bytes.js'

// Built and signed by AvalancheJS 5.2.0 (scripts/genAvalancheVectors.ts; test/fixtures/avalanche/README.md).
const VECTORS_TEXT = readFileSync(new URL('../fixtures/avalanche/atomic-txs.json', import.meta.url), 'utf8')
const vectors = JSON.parse(VECTORS_TEXT)
type NetName = keyof typeof NETWORKS
const keyByName = new Map<string, any>(vectors.keys.map((k: any) => [k.name, k]))

function ctxOf(v: any) {
  const net = NETWORKS[v.network.name as NetName]
  return { networkID: net.networkID, chainID: net.cChainID, xChainID: net.xChainID, avaxAssetID: net.avaxAssetID }
}

const allTxs: any[] = [...vectors.importTxs, ...vectors.exportTxs]

describe.each(allTxs.map((v) => [v.id, v] as [string, any]))('vector %s', (_id, v) => {
  const parsed = parseTx(bytes(v.expected.signedTxHex))

  it('decodes and re-encodes to identical bytes', () => {
    expect(hex(encodeTx(parsed.tx))).toBe(v.expected.signedTxHex)
    expect(hex(parsed.signedBytes)).toBe(v.expected.signedTxHex)
    expect(v.expected.layout.map((s: any) => s.hex).join('')).toBe(v.expected.signedTxHex)
  })

  it('gives the unsigned bytes, signing hash and txID', () => {
    expect(hex(parsed.unsignedBytes)).toBe(v.expected.unsignedTxHex)
    expect(hex(encodeUnsignedTx(parsed.tx.unsignedTx))).toBe(v.expected.unsignedTxHex)
    expect(parsed.unsignedBytes.length).toBe(v.expected.unsignedTxByteLength)
    expect(hex(signingHash(parsed.unsignedBytes))).toBe(v.expected.signingHashHex)
    expect(cb58Encode(parsed.id)).toBe(v.expected.txID)
    expect(hex(parsed.id)).toBe(v.expected.txIDHex)
    expect(cb58Encode(toAtomicTx(parsed.tx).id)).toBe(v.issueTxResult?.txID ?? v.expected.issueTxResult.txID)
  })

  it('encodes to the API hex that issueTx takes, and back', () => {
    expect(encodeBytes('hex', parsed.signedBytes)).toBe(v.expected.signedTxApiHex)
    expect(v.expected.issueTxRequest.params.tx).toBe(v.expected.signedTxApiHex)
    expect(hex(decodeBytes('hex', v.expected.signedTxApiHex))).toBe(v.expected.signedTxHex)
  })

  it('has the expected gas, required fee, burn and price', () => {
    const g = v.expected.gas
    const gas = gasUsed(parsed.tx.unsignedTx, parsed.unsignedBytes.length)
    expect(gas.toString()).toBe(g.gasUsed)
    expect(gas.toString()).toBe(g.avalanchejsCostCorethTx)
    expect(gasUsed(parsed.tx.unsignedTx, parsed.unsignedBytes.length, false)).toBe(gas - 10_000n)
    const fee = calculateDynamicFee(gas, BigInt(g.baseFeeWei))
    expect(fee.toString()).toBe(g.requiredFeeNAVAX)
    const burn = burned(parsed.tx.unsignedTx, cb58Decode(v.avaxAssetID))
    expect(burn.toString()).toBe(g.burnedNAVAX)
    expect((burn - fee).toString()).toBe(g.overpaidNAVAX)
    expect(effectiveGasPrice(burn, gas)).toBe((burn * 1_000_000_000n) / gas)
    verifyFlow(parsed.tx.unsignedTx, cb58Decode(v.avaxAssetID), fee)
    expect(() => verifyFlow(parsed.tx.unsignedTx, cb58Decode(v.avaxAssetID), burn + 1n)).toThrow(`${v.kind === 'ImportTx' ? 'import' : 'export'} tx flow check failed due to: insufficient funds`)
  })

  it('passes syntactic verification on its network', () => {
    expect(() => verifyUnsignedTx(ctxOf(v), parsed.tx.unsignedTx)).not.toThrow()
    verifyCredentialCount(parsed.tx.unsignedTx, parsed.tx.creds)
  })

  it('recovers the expected signers', () => {
    const hash = signingHash(parsed.unsignedBytes)
    parsed.tx.creds.forEach((cred, i) => {
      expect(cred.typeID).toBe(TYPE_ID.Credential)
      if (cred.typeID !== TYPE_ID.Credential) return
      const expected = v.expected.credentials[i]
      expect(cred.sigs.map(hex)).toEqual(expected.signaturesHex)
      cred.sigs.forEach((sig, j) => {
        const signer = recoverSigner(hash, sig)
        expect(hex(signer.publicKey)).toBe(expected.recoveredPublicKeys[j])
        const key = vectors.keys.find((k: any) => k.publicKeyCompressedHex === hex(signer.publicKey))
        expect(hex(signer.shortAddress)).toBe(key.shortAddressHex)
        expect(toChecksumAddress(signer.ethAddress)).toBe(key.ethAddress)
        expect(hex(signHash(parsePrivateKey(key.privateKeyCB58), hash))).toBe(hex(sig))
      })
    })
  })

  if (v.kind === 'ImportTx') {
    const utx = parsed.tx.unsignedTx as UnsignedImportTx
    it('decodes its UTXOs, their IDs and spends them', () => {
      const utxos = v.inputs.utxos.map((u: any) => {
        const utxo = decodeUTXO(bytes(u.bytesHex))
        expect(hex(encodeUTXO(utxo))).toBe(u.bytesHex)
        expect(encodeBytes('hex', encodeUTXO(utxo))).toBe(u.apiHex)
        expect(utxoIDToString(utxo.utxoID)).toBe(u.utxoID)
        expect(hex(utxoInputID(utxo.utxoID))).toBe(u.inputIDHex)
        expect(cb58Encode(utxoInputID(utxo.utxoID))).toBe(u.inputIDCB58)
        expect(utxo.out.addrs.map(hex)).toEqual(u.addressesHex)
        expect(utxo.out.addrs.map((a) => formatAddress('X', v.network.hrp, a))).toEqual(u.addressesX)
        expect(utxo.out.threshold).toBe(u.threshold)
        expect(utxo.out.amount.toString()).toBe(u.amountNAVAX)
        return utxo
      })
      expect(inputUTXOs(utx).map(cb58Encode)).toEqual(v.expected.importedInputUTXOIDs)
      const hash = signingHash(parsed.unsignedBytes)
      utx.importedInputs.forEach((input, i) => {
        const utxo = utxos.find((u: UTXO) => hex(utxoInputID(u.utxoID)) === hex(utxoInputID(input.utxoID)))
        verifySpend(hash, input.in, parsed.tx.creds[i]!, utxo.out, 0n)
      })
      expect(
        utx.outs.map((o) => ({ address: toChecksumAddress(o.address), assetID: cb58Encode(o.assetID), amountNAVAX: o.amount.toString(), creditWei: (o.amount * 1_000_000_000n).toString() })),
      ).toEqual(v.expected.evmOutputs)
    })
  } else {
    const utx = parsed.tx.unsignedTx as UnsignedExportTx
    it('has the EVM inputs, conflict keys and exported UTXOs', () => {
      expect(
        utx.ins.map((i) => ({
          address: toChecksumAddress(i.address),
          assetID: cb58Encode(i.assetID),
          amountNAVAX: i.amount.toString(),
          debitWei: (i.amount * 1_000_000_000n).toString(),
          requiredNonce: i.nonce.toString(),
          nonceAfter: (i.nonce + 1n).toString(),
        })),
      ).toEqual(v.expected.evmInputs)
      expect(inputUTXOs(utx).map(hex)).toEqual(v.expected.evmInputConflictIDsHex)
      const hash = signingHash(parsed.unsignedBytes)
      utx.ins.forEach((input, i) => verifyEVMInputCredential(hash, input, parsed.tx.creds[i]!))
      utx.exportedOutputs.forEach((out, i) => {
        const utxo: UTXO = { utxoID: { txID: parsed.id, outputIndex: i }, assetID: out.assetID, out: out.out }
        const expected = v.expected.exportedUTXOs[i]
        expect(utxoIDToString(utxo.utxoID)).toBe(expected.utxoID)
        expect(hex(encodeUTXO(utxo))).toBe(expected.bytesHex)
        expect(encodeBytes('hex', encodeUTXO(utxo))).toBe(expected.apiHex)
        expect(hex(utxoInputID(utxo.utxoID))).toBe(expected.inputIDHex)
        expect(cb58Encode(utxoInputID(utxo.utxoID))).toBe(expected.inputIDCB58)
        expect(out.out.addrs.map(hex)).toEqual(expected.traitsHex)
        expect(out.out.addrs.map((a) => formatAddress(v.inputs.destinationChainAlias, v.network.hrp, a))).toEqual(expected.addresses)
      })
    })
  }
})

describe('all vectors together', () => {
  it('round-trip as an AP5 block extra-data batch', () => {
    const txs = allTxs.map((v) => parseTx(bytes(v.expected.signedTxHex)))
    const extData = encodeAtomicTxBatch(txs.map((t) => t.tx))
    const back = decodeAtomicTxBatch(extData)
    expect(back.map((t) => cb58Encode(t.id))).toEqual(allTxs.map((v) => v.expected.txID))
    expect(back.map((t) => hex(t.unsignedBytes))).toEqual(allTxs.map((v) => v.expected.unsignedTxHex))
  })
})

describe.each<[string, any]>(vectors.keys.map((k: any) => [k.name, k]))('key %s', (_name, k: any) => {
  it('parses and formats PrivateKey-, derives both addresses and bech32 forms', () => {
    const sk = parsePrivateKey(k.privateKeyCB58)
    expect(hex(sk)).toBe(k.privateKeyHex)
    expect(formatPrivateKey(sk)).toBe(k.privateKeyCB58)
    const pub = publicKeyOf(sk)
    expect(hex(pub)).toBe(k.publicKeyCompressedHex)
    expect(hex(shortAddress(pub))).toBe(k.shortAddressHex)
    expect(cb58Encode(shortAddress(pub))).toBe(k.shortAddressCB58)
    expect(toChecksumAddress(ethAddress(pub))).toBe(k.ethAddress)
    expect(toChecksumAddress(ethAddress(bytes(k.publicKeyUncompressedHex)))).toBe(k.ethAddress)
    for (const [net, forms] of Object.entries<any>(k.bech32)) {
      for (const chain of ['X', 'P', 'C']) {
        expect(formatAddress(chain, NETWORKS[net as NetName].hrp, shortAddress(pub))).toBe(forms[chain])
      }
    }
  })
})

describe('encodings and well-known IDs of the vectors', () => {
  it.each<[string, any]>(vectors.encodings.cb58.map((e: any) => [e.label, e]))('%s', (_label, e: any) => {
    expect(cb58Encode(bytes(e.hex))).toBe(e.cb58)
    expect(hex(cb58Decode(e.cb58))).toBe(e.hex)
    expect(encodeBytes('hex', bytes(e.hex))).toBe(e.apiHexWithChecksum)
    expect(encodeBytes('hexc', bytes(e.hex))).toBe(e.apiHexWithChecksum)
    expect(encodeBytes('hexnc', bytes(e.hex))).toBe(e.apiHexNoChecksum)
    expect(hex(decodeBytes('hex', e.apiHexWithChecksum))).toBe(e.hex)
    expect(hex(decodeBytes('hexnc', e.apiHexNoChecksum))).toBe(e.hex)
  })

  it('matches NETWORKS', () => {
    for (const id of vectors.encodings.wellKnownIDs) {
      const net = NETWORKS[id.network as NetName]
      const field = { X: net.xChainID, P: net.pChainID, C: net.cChainID, AVAX: net.avaxAssetID }[id.what as 'X' | 'P' | 'C' | 'AVAX']
      expect(hex(field)).toBe(id.hex)
      expect(cb58Encode(field)).toBe(id.cb58)
    }
    for (const [name, n] of Object.entries<any>(vectors.networks)) {
      const net = NETWORKS[name as NetName]
      expect(net.networkID).toBe(n.networkID)
      expect(net.hrp).toBe(n.hrp)
      expect(net.evmChainID).toBe(n.evmChainID)
      expect(cb58Encode(net.cChainID)).toBe(n.cBlockchainID)
    }
  })

  it('keeps the well-known ewoq key of the avalanchego local genesis', () => {
    expect(keyByName.get('ewoq').privateKeyCB58).toBe('PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN')
  })
})

describe('the committed vectors file', () => {
  it('is what scripts/genAvalancheVectors.ts generates (stale: run npm run gen:vectors)', async () => {
    const generated = await vectorsText()
    expect(JSON.parse(generated)).toEqual(vectors)
    expect(generated).toBe(VECTORS_TEXT)
  })
})
