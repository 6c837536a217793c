import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SignatureError, VerifyError } from '../../../src/avalanche/errors.js'
import { ATOMIC_TX_INTRINSIC_GAS, blockFeeContribution, burned, calculateDynamicFee, effectiveGasPrice, gasUsed, parseHexBig, suggestedBaseFee, suggestedFee } from '../../../src/atomic/fees.js'
import { NETWORKS } from '../../../src/avalanche/networks.js'
import { parsePrivateKey } from '../../../src/avalanche/privateKey.js'
import { signHash } from '../../../src/avalanche/signature.js'
import { verifyCredentialCount, verifyEVMInputCredential } from '../../../src/atomic/spend.js'
import { verifyCredentials, verifySpend } from '../../../src/avalanche/spend.js'
import { parseTx, signingHash } from '../../../src/atomic/tx.js'
import type { UnsignedExportTx, UnsignedImportTx } from '../../../src/atomic/types.js'
import type { TransferOutput } from '../../../src/avalanche/types.js'
import { CURRENT_RULES, type VerifyContext, inputUTXOs, sortEVMInOuts, verifyExportTx, verifyImportTx } from '../../../src/atomic/verify.js'
import { compareTransferableOutputs, sortTransferableInputs, sortTransferableOutputs } from '../../../src/avalanche/compare.js'
import { bytes } from '../../helpers/bytes.js'

const vectors = JSON.parse(readFileSync(new URL('../../fixtures/avalanche/atomic-txs.json', import.meta.url), 'utf8'))
const local = NETWORKS.local
const ctx: VerifyContext = { networkID: local.networkID, chainID: local.cChainID, xChainID: local.xChainID, avaxAssetID: local.avaxAssetID }
const otherAsset = new Uint8Array(32).fill(7)
const zeroID = new Uint8Array(32)

const importVector = (i: number) => parseTx(bytes(vectors.importTxs[i].expected.signedTxHex))
const exportVector = (i: number) => parseTx(bytes(vectors.exportTxs[i].expected.signedTxHex))
// Fresh, mutable copies of a 2-input import (two-utxos-two-signers) and a 2-owner export (multiowner).
const imp = (): UnsignedImportTx => importVector(2).tx.unsignedTx as UnsignedImportTx
const exp = (): UnsignedExportTx => exportVector(2).tx.unsignedTx as UnsignedExportTx

function importError(mutate: (tx: UnsignedImportTx) => void, c: VerifyContext = ctx): string {
  const tx = imp()
  mutate(tx)
  try {
    verifyImportTx(c, tx)
  } catch (err) {
    expect(err).toBeInstanceOf(VerifyError)
    return (err as Error).message
  }
  return 'ok'
}

function exportError(mutate: (tx: UnsignedExportTx) => void, c: VerifyContext = ctx): string {
  const tx = exp()
  mutate(tx)
  try {
    verifyExportTx(c, tx)
  } catch (err) {
    expect(err).toBeInstanceOf(VerifyError)
    return (err as Error).message
  }
  return 'ok'
}

describe('UnsignedImportTx.Verify (coreth: plugin/evm/atomic/import_tx.go)', () => {
  it('accepts the vector', () => expect(importError(() => {})).toBe('ok'))

  it.each<[string, (tx: UnsignedImportTx) => void, string]>([
    [
      'no inputs',
      (tx) => {
        tx.importedInputs = []
        tx.networkID = 1
      },
      'tx has no imported inputs',
    ],
    [
      'other network',
      (tx) => {
        tx.networkID = 1
        tx.outs = []
      },
      'tx was issued with a different network ID',
    ],
    [
      'other blockchain',
      (tx) => {
        tx.blockchainID = local.xChainID
        tx.outs = []
      },
      'tx has wrong chain ID',
    ],
    [
      'no outputs',
      (tx) => {
        tx.outs = []
        tx.sourceChain = local.cChainID
      },
      'tx has no EVM outputs',
    ],
    [
      'source is this chain',
      (tx) => {
        tx.sourceChain = local.cChainID
      },
      'tx has wrong chain ID',
    ],
    [
      'source unknown',
      (tx) => {
        tx.sourceChain = otherAsset
      },
      'tx has wrong chain ID',
    ],
    [
      'output amount 0',
      (tx) => {
        tx.outs[0]!.amount = 0n
        tx.outs[0]!.assetID = zeroID
      },
      'EVM Output failed verification: output has no value',
    ],
    [
      'output empty asset',
      (tx) => {
        tx.outs[0]!.assetID = zeroID
      },
      'EVM Output failed verification: empty asset ID is not valid',
    ],
    [
      'output non-AVAX',
      (tx) => {
        tx.outs[0]!.assetID = otherAsset
        tx.importedInputs[0]!.in.amount = 0n
      },
      'import output cannot contain non-AVAX in Banff',
    ],
    [
      'input empty asset',
      (tx) => {
        tx.importedInputs[0]!.assetID = zeroID
        tx.importedInputs[0]!.in.amount = 0n
      },
      'atomic input failed verification: empty asset ID is not valid',
    ],
    [
      'input amount 0',
      (tx) => {
        tx.importedInputs[0]!.in.amount = 0n
      },
      'atomic input failed verification: input has no value',
    ],
    [
      'input sig indices unsorted',
      (tx) => {
        tx.importedInputs[0]!.in.sigIndices = [1, 0]
      },
      'atomic input failed verification: address indices not sorted and unique',
    ],
    [
      'input sig indices repeated',
      (tx) => {
        tx.importedInputs[0]!.in.sigIndices = [0, 0]
      },
      'atomic input failed verification: address indices not sorted and unique',
    ],
    [
      'input non-AVAX',
      (tx) => {
        tx.importedInputs[1]!.assetID = otherAsset
      },
      'import input cannot contain non-AVAX in Banff',
    ],
    [
      'inputs unsorted',
      (tx) => {
        tx.importedInputs.reverse()
      },
      'inputs not sorted and unique',
    ],
    [
      'inputs repeated',
      (tx) => {
        tx.importedInputs[1] = tx.importedInputs[0]!
      },
      'inputs not sorted and unique',
    ],
    [
      'outputs repeated',
      (tx) => {
        tx.outs.push({ ...tx.outs[0]! })
      },
      'outputs not sorted and unique',
    ],
    [
      'outputs unsorted',
      (tx) => {
        tx.outs.unshift({ ...tx.outs[0]!, address: new Uint8Array(20).fill(0xff) })
      },
      'outputs not sorted and unique',
    ],
  ])('%s', (_name, mutate, message) => expect(importError(mutate)).toBe(message))

  it('applies the older phases', () => {
    const ap1 = { ...ctx, rules: { ...CURRENT_RULES, isApricotPhase2: false, isApricotPhase3: false, isApricotPhase5: false, isBanff: false } }
    expect(
      importError((tx) => {
        tx.outs.push({ ...tx.outs[0]! })
      }, ap1),
    ).toBe('ok')
    expect(
      importError((tx) => {
        tx.outs.unshift({ ...tx.outs[0]!, address: new Uint8Array(20).fill(0xff) })
      }, ap1),
    ).toBe('tx outputs not sorted')
    expect(
      importError((tx) => {
        tx.outs = []
      }, ap1),
    ).toBe('ok')
    expect(
      importError((tx) => {
        tx.sourceChain = local.pChainID
      }, ap1),
    ).toBe('tx has wrong chain ID')
    expect(
      importError((tx) => {
        tx.sourceChain = local.pChainID
      }),
    ).toBe('ok')
  })
})

describe('UnsignedExportTx.Verify (coreth: plugin/evm/atomic/export_tx.go)', () => {
  it('accepts the vector', () => expect(exportError(() => {})).toBe('ok'))

  it.each<[string, (tx: UnsignedExportTx) => void, string]>([
    [
      'no outputs',
      (tx) => {
        tx.exportedOutputs = []
        tx.networkID = 1
      },
      'tx has no export outputs',
    ],
    [
      'other network',
      (tx) => {
        tx.networkID = 5
      },
      'tx was issued with a different network ID',
    ],
    [
      'other blockchain',
      (tx) => {
        tx.blockchainID = zeroID
      },
      'tx has wrong chain ID',
    ],
    [
      'destination is this chain',
      (tx) => {
        tx.destinationChain = local.cChainID
      },
      'tx has wrong chain ID',
    ],
    [
      'input amount 0',
      (tx) => {
        tx.ins[0]!.amount = 0n
        tx.ins[0]!.assetID = zeroID
      },
      'input has no value',
    ],
    [
      'input empty asset',
      (tx) => {
        tx.ins[0]!.assetID = zeroID
      },
      'empty asset ID is not valid',
    ],
    [
      'input non-AVAX',
      (tx) => {
        tx.ins[0]!.assetID = otherAsset
      },
      'export input cannot contain non-AVAX in Banff',
    ],
    [
      'output empty asset',
      (tx) => {
        tx.exportedOutputs[0]!.assetID = zeroID
        tx.exportedOutputs[0]!.out.amount = 0n
      },
      'empty asset ID is not valid',
    ],
    [
      'output amount 0',
      (tx) => {
        tx.exportedOutputs[0]!.out.amount = 0n
      },
      'output has no value',
    ],
    [
      'output unspendable',
      (tx) => {
        tx.exportedOutputs[0]!.out.threshold = 3
      },
      'output is unspendable',
    ],
    [
      'output unoptimized',
      (tx) => {
        tx.exportedOutputs[0]!.out.threshold = 0
      },
      'output representation should be optimized',
    ],
    [
      'owners unsorted',
      (tx) => {
        tx.exportedOutputs[0]!.out.addrs.reverse()
      },
      'addresses not sorted and unique',
    ],
    [
      'owners repeated',
      (tx) => {
        const a = tx.exportedOutputs[0]!.out.addrs
        a[1] = a[0]!
      },
      'addresses not sorted and unique',
    ],
    [
      'nil output',
      (tx) => {
        ;(tx.exportedOutputs as unknown[])[0] = undefined
      },
      'nil transferable output is not valid',
    ],
    [
      'non-AVAX to P',
      (tx) => {
        tx.destinationChain = local.pChainID
        tx.exportedOutputs[0]!.assetID = otherAsset
      },
      'tx has wrong chain ID',
    ],
    [
      'non-AVAX to X',
      (tx) => {
        tx.exportedOutputs[0]!.assetID = otherAsset
      },
      'export output cannot contain non-AVAX in Banff',
    ],
    [
      'outputs unsorted',
      (tx) => {
        const o = tx.exportedOutputs[0]!
        tx.exportedOutputs = [
          { ...o, out: { ...o.out, amount: 2n } },
          { ...o, out: { ...o.out, amount: 1n } },
        ]
      },
      'tx outputs not sorted',
    ],
    [
      'inputs repeated',
      (tx) => {
        tx.ins.push({ ...tx.ins[0]! })
      },
      'inputs not sorted and unique',
    ],
  ])('%s', (_name, mutate, message) => expect(exportError(mutate)).toBe(message))

  it('allows equal outputs and, before AP1, repeated inputs', () => {
    expect(
      exportError((tx) => {
        tx.exportedOutputs.push(tx.exportedOutputs[0]!)
      }),
    ).toBe('ok')
    const ap0 = { ...ctx, rules: { isApricotPhase1: false, isApricotPhase2: false, isApricotPhase3: false, isApricotPhase5: false, isBanff: false } }
    expect(
      exportError((tx) => {
        tx.ins.push({ ...tx.ins[0]! })
      }, ap0),
    ).toBe('ok')
    expect(
      exportError((tx) => {
        tx.destinationChain = local.pChainID
      }, ap0),
    ).toBe('tx has wrong chain ID')
  })
})

describe('sorting helpers (avalanchego: vms/components/avax/transferables.go)', () => {
  it('put shuffled parts back into the order Verify wants', () => {
    const tx = imp()
    tx.importedInputs.reverse()
    sortTransferableInputs(tx.importedInputs)
    expect(() => verifyImportTx(ctx, tx)).not.toThrow()
    const e = exp()
    const o = e.exportedOutputs[0]!
    e.exportedOutputs = [
      { ...o, out: { ...o.out, amount: 9n } },
      { ...o, out: { ...o.out, amount: 3n } },
      { ...o, assetID: zeroID.slice().fill(1), out: { ...o.out, amount: 5n } },
    ]
    sortTransferableOutputs(e.exportedOutputs)
    expect(e.exportedOutputs.map((x) => x.out.amount)).toEqual([5n, 3n, 9n])
    expect(compareTransferableOutputs(e.exportedOutputs[1]!, e.exportedOutputs[1]!)).toBe(0)
    const outs = [
      { address: new Uint8Array(20).fill(2), amount: 1n, assetID: otherAsset },
      { address: new Uint8Array(20).fill(1), amount: 1n, assetID: otherAsset },
    ]
    expect(sortEVMInOuts(outs).map((x) => x.address[0])).toEqual([1, 2])
  })

  it('dedupes conflict keys', () => {
    const tx = imp()
    tx.importedInputs.push(tx.importedInputs[0]!)
    expect(inputUTXOs(tx)).toHaveLength(2)
  })
})

describe('semantic building blocks (coreth: plugin/evm/atomic/vm/tx_semantic_verifier.go)', () => {
  const parsed = importVector(3) // 2-of-2 multisig
  const utx = parsed.tx.unsignedTx as UnsignedImportTx
  const hash = signingHash(parsed.unsignedBytes)
  const utxo = vectors.importTxs[3].inputs.utxos[0]
  const owners: TransferOutput = { amount: BigInt(utxo.amountNAVAX), locktime: 0n, threshold: 2, addrs: utxo.addressesHex.map(bytes) }
  const cred = parsed.tx.creds[0]!
  const sigs = cred.typeID === 9 ? cred.sigs : []

  it('accepts the multisig spend and refuses each broken variant', () => {
    verifySpend(hash, utx.importedInputs[0]!.in, cred, owners, 0n)
    expect(() => verifySpend(hash, utx.importedInputs[0]!.in, { typeID: 10, sigIndices: [] }, owners, 0n)).toThrow('wrong credential type')
    expect(() => verifySpend(hash, { ...utx.importedInputs[0]!.in, amount: 1n }, cred, owners, 0n)).toThrow(`utxo amount and input amount are not equal: ${owners.amount} != 1`)
    expect(() => verifySpend(hash, utx.importedInputs[0]!.in, cred, { ...owners, locktime: 10n }, 9n)).toThrow('output is time locked')
    expect(() => verifyCredentials(hash, { sigIndices: [0, 1] }, sigs, { ...owners, threshold: 1 }, 0n)).toThrow('input has more signers than expected')
    expect(() => verifyCredentials(hash, { sigIndices: [0] }, sigs, owners, 0n)).toThrow('input has less signers than expected')
    expect(() => verifyCredentials(hash, { sigIndices: [0, 1] }, sigs.slice(0, 1), owners, 0n)).toThrow('input expected a different number of signers than provided in the credential')
    expect(() => verifyCredentials(hash, { sigIndices: [0, 2] }, sigs, owners, 0n)).toThrow('input referenced a nonexistent address in the output')
    expect(() => verifyCredentials(hash, { sigIndices: [0, 1] }, [...sigs].reverse(), owners, 0n)).toThrow(/^wrong signature: expected signature from \w+ but got from \w+$/)
  })

  it('checks credential counts with both wordings', () => {
    expect(() => verifyCredentialCount(utx, [])).toThrow('incorrect number of credentials: (1 vs. 0)')
    const e = exportVector(0)
    expect(() => verifyCredentialCount(e.tx.unsignedTx, [...e.tx.creds, ...e.tx.creds])).toThrow('export tx contained incorrect number of credentials want 1 got 2')
  })

  it('checks the EVM input signature', () => {
    const e = exportVector(0)
    const eu = e.tx.unsignedTx as UnsignedExportTx
    const eh = signingHash(e.unsignedBytes)
    const ec = e.tx.creds[0]!
    verifyEVMInputCredential(eh, eu.ins[0]!, ec)
    expect(() => verifyEVMInputCredential(eh, { ...eu.ins[0]!, address: new Uint8Array(20) }, ec)).toThrow("signature doesn't match public key")
    expect(() => verifyEVMInputCredential(eh, eu.ins[0]!, { typeID: 9, sigs: [] })).toThrow('incorrect number of signatures want 1 signature for EVM Input Credential, but got 0')
    expect(() => verifyEVMInputCredential(eh, eu.ins[0]!, { typeID: 11, locktime: 0n, threshold: 0, addrs: [] })).toThrow('expected *secp256k1fx.Credential but got *secp256k1fx.Credential')
    const bad = ec.typeID === 9 ? ec.sigs[0]!.slice(0, 64) : new Uint8Array(0)
    expect(() => verifyEVMInputCredential(eh, eu.ins[0]!, { typeID: 9, sigs: [bad] })).toThrow(SignatureError)
  })
})

describe('gas and fees (coreth: plugin/evm/atomic/tx.go)', () => {
  it('matches the worked examples', () => {
    expect(calculateDynamicFee(11_230n, 25_000_000_000n)).toBe(280_750n)
    expect(calculateDynamicFee(11_230n, 1_000_000_000n)).toBe(11_230n)
    expect(calculateDynamicFee(11_230n, 1n)).toBe(1n)
    expect(calculateDynamicFee(0n, 1n)).toBe(0n)
    expect(() => calculateDynamicFee(11_230n, undefined)).toThrow('cannot calculate dynamic fee with nil baseFee')
    expect(() => calculateDynamicFee(2n ** 64n, 10n ** 9n)).toThrow('overflow occurred while calculating the fee')
    expect(ATOMIC_TX_INTRINSIC_GAS).toBe(10_000n)
  })

  it('counts signatures per sig index for imports and per input for exports', () => {
    const two = importVector(2)
    expect(gasUsed(two.tx.unsignedTx, two.unsignedBytes.length)).toBe(BigInt(two.unsignedBytes.length) + 2000n + 10_000n)
    const multisig = importVector(3)
    expect(gasUsed(multisig.tx.unsignedTx, multisig.unsignedBytes.length)).toBe(12_234n)
  })

  it('computes burn, price, contribution and the suggested fee', () => {
    const e = exportVector(3) // 1 wei base fee, over-pays
    const burn = burned(e.tx.unsignedTx, local.avaxAssetID)
    expect(burn).toBe(11_230n)
    expect(burned(e.tx.unsignedTx, otherAsset)).toBe(0n)
    expect(effectiveGasPrice(burn, 11_230n)).toBe(1_000_000_000n)
    expect(() => effectiveGasPrice(burn, 0n)).toThrow('no gas used')
    expect(blockFeeContribution(burn, 11_230n, 1n)).toEqual({ contribution: 11_229n * 1_000_000_000n, gasUsed: 11_230n })
    expect(() => blockFeeContribution(1n, 11_230n, 25_000_000_000n)).toThrow('insufficient AVAX burned (1) to cover import tx fee (280750)')
    expect(() => blockFeeContribution(1n, 11_230n, 0n)).toThrow('cannot calculate tip with base fee 0 <= 0')
    const tx = imp()
    tx.outs[0]!.amount = 10n ** 15n
    expect(() => burned(tx, local.avaxAssetID)).toThrow('underflow')
    expect(suggestedBaseFee(25_000_000_000n)).toBe(27_500_000_000n)
    expect(suggestedBaseFee(1n)).toBe(1n)
    expect(suggestedBaseFee(undefined)).toBe(225_000_000_000n)
    expect(suggestedFee(11_230n, 25_000_000_000n)).toBe(308_825n)
  })

  it('parses hexutil.Big base fees', () => {
    expect(parseHexBig('0x5d21dba00')).toBe(25_000_000_000n)
    expect(parseHexBig('0x0')).toBe(0n)
    for (const bad of ['5d21dba00', '0x', '0x01', '0xzz', '0x' + '1'.repeat(65)]) expect(() => parseHexBig(bad)).toThrow()
  })
})

describe('signing', () => {
  it('produces low-S, v in {0,1} signatures that verify', () => {
    const sk = parsePrivateKey(vectors.keys[1].privateKeyCB58)
    for (let i = 0; i < 20; i++) {
      const h = signingHash(Uint8Array.of(i))
      const sig = signHash(sk, h)
      expect(sig).toHaveLength(65)
      expect(sig[64]! <= 1).toBe(true)
    }
  })
})
