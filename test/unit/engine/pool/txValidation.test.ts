import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { createTxFromRLP } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { Transaction, type TransactionRequest, Wallet } from 'ethers'
import { describe, expect, it } from 'vitest'
import { admitRawTransaction, typedSigningHash, type AdmissionRules } from '../../../../src/engine/pool/txValidation.js'
import { txBytes, txSender } from '../../../../src/engine/chain/txMemo.js'
import { customCrypto } from '../../../../src/util/crypto.js'

/*
 * What admission leaves on the transaction object: the sender recovered once and the hash of the
 * raw bytes, each equal to what ethers (an independent implementation) derives from the same
 * signed bytes and to what ethereumjs derives on a fresh decode.
 */

const CHAIN_ID = 43112n
const common = createCustomCommon({ chainId: Number(CHAIN_ID), name: 'avalanche-43112' }, Mainnet, { hardfork: 'cancun', customCrypto })
const rules: AdmissionRules = { common, chainId: CHAIN_ID, allowUnprotected: false, txFeeCap: 100, blockGasLimit: 200_000_000n, minTip: 1n, nextBaseFee: 1n, maxSize: 128 * 1024, warp: true }
const wallet = new Wallet('0x' + '42'.repeat(32))
const base = { chainId: CHAIN_ID, to: '0x' + '99'.repeat(20), gasLimit: 30_000n, value: 5n }

describe('admitRawTransaction', () => {
  const cases: [string, TransactionRequest][] = [
    ['legacy', { type: 0, gasPrice: 30n * 10n ** 9n }],
    ['access list', { type: 1, gasPrice: 30n * 10n ** 9n, accessList: [{ address: base.to, storageKeys: ['0x' + '00'.repeat(31) + '01'] }] }],
    ['dynamic fee', { type: 2, maxFeePerGas: 30n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n }],
  ]
  for (const [name, fields] of cases) {
    it(`keeps the sender and hash of a ${name} transaction, frozen`, async () => {
      const signed = await wallet.signTransaction({ ...base, nonce: 7, ...fields })
      const ptx = admitRawTransaction(hexToBytes(signed as `0x${string}`), rules, 0)
      const fresh = createTxFromRLP(hexToBytes(signed as `0x${string}`), { common })
      expect(Object.isFrozen(ptx.tx)).toBe(true)
      expect(ptx.senderHex).toBe(wallet.address.toLowerCase())
      expect(ptx.tx.getSenderAddress().toString()).toBe(wallet.address.toLowerCase())
      expect(txSender(ptx.tx).toString()).toBe(wallet.address.toLowerCase())
      expect(ptx.hash).toBe(Transaction.from(signed).hash)
      expect(bytesToHex(ptx.tx.hash())).toBe(bytesToHex(fresh.hash()))
      expect(bytesToHex(txBytes(ptx.tx))).toBe(bytesToHex(fresh.serialize()))
      expect(ptx.tx.verifySignature()).toBe(true)
    })
  }
})

describe('typedSigningHash', () => {
  const slot = (i: number) => '0x' + i.toString(16).padStart(64, '0')
  const cases: [string, TransactionRequest][] = [
    ['access list, short', { type: 1, gasPrice: 1n, accessList: [] }],
    ['access list, with entries and data', { type: 1, gasPrice: 30n * 10n ** 9n, data: '0x' + 'ab'.repeat(300), accessList: [{ address: base.to, storageKeys: [slot(1), slot(2)] }] }],
    ['dynamic fee, no data', { type: 2, maxFeePerGas: 30n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n }],
    ['dynamic fee, contract creation', { type: 2, to: null, maxFeePerGas: 30n * 10n ** 9n, maxPriorityFeePerGas: 0n, data: '0x' + '60'.repeat(40_000) }],
    ['dynamic fee, data over 64 KiB', { type: 2, maxFeePerGas: 30n * 10n ** 9n, maxPriorityFeePerGas: 0n, data: '0x' + '61'.repeat(70_000) }],
    [
      'dynamic fee, long access list',
      { type: 2, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, data: '0x00', accessList: [{ address: base.to, storageKeys: Array.from({ length: 40 }, (_, i) => slot(i)) }] },
    ],
  ]
  for (const [name, fields] of cases) {
    it(`is ethereumjs's hash of the unsigned fields: ${name}`, async () => {
      const signed = hexToBytes((await wallet.signTransaction({ ...base, nonce: 300, ...fields })) as `0x${string}`)
      const tx = createTxFromRLP(signed, { common })
      expect(bytesToHex(typedSigningHash(signed, tx.type === 2 ? 9 : 8))).toBe(bytesToHex(tx.getHashedMessageToSign() as Uint8Array))
    })
  }
})
