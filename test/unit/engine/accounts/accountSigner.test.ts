/** The engine-side pieces of personal_ that need no chain: ecRecover, the raw-key parser, the fee cap. */
import { SigningKey, hashMessage } from 'ethers'
import { describe, expect, it } from 'vitest'
import { ecRecover, parseRawKey } from '../../../../src/engine/accounts/accountSigner.js'
import { checkTxFee } from '../../../../src/engine/pool/txValidation.js'
import { EWOQ_KEY } from '../../../helpers/constants.js'

const KEY = EWOQ_KEY
const EWOQ = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc'

describe('ecRecover', () => {
  it('recovers the signer of an EIP-191 signature (V 27/28), lowercase', () => {
    const data = new Uint8Array([1, 2, 3])
    const sig = Buffer.from(new SigningKey(KEY).sign(hashMessage(data)).serialized.slice(2), 'hex')
    expect(ecRecover(data, sig)).toBe(EWOQ)
  })

  it("refuses with geth's texts", () => {
    expect(() => ecRecover(new Uint8Array(), new Uint8Array(64))).toThrow('signature must be 65 bytes long')
    expect(() => ecRecover(new Uint8Array(), new Uint8Array(65).fill(5))).toThrow('invalid Ethereum signature (V is not 27 or 28)')
    expect(() =>
      ecRecover(
        new Uint8Array(),
        new Uint8Array(65).fill(0).map((_, i) => (i === 64 ? 27 : 0)),
      ),
    ).toThrow('recovery failed')
  })
})

describe('parseRawKey', () => {
  it('takes hex with or without 0x', () => {
    expect(parseRawKey(KEY).toString('hex')).toBe(KEY.slice(2))
    expect(parseRawKey(KEY.slice(2)).toString('hex')).toBe(KEY.slice(2))
  })

  it("refuses bad hex with geth's texts", () => {
    expect(() => parseRawKey('0xzz')).toThrow('invalid hex character "z" in private key')
    expect(() => parseRawKey('abc')).toThrow('invalid hex data for private key')
  })
})

describe('checkTxFee (RPCTxFeeCap)', () => {
  it('passes at the cap, refuses above it with the fee rounded to hundredths, and 0 means no cap', () => {
    const gwei = 10n ** 9n
    expect(() => checkTxFee(50n * gwei, 20_000_000n, 1)).not.toThrow()
    expect(() => checkTxFee(50n * gwei + 1n, 20_000_000n, 1)).toThrow('tx fee (1.00 ether) exceeds the configured cap (1.00 ether)')
    expect(() => checkTxFee(10n ** 18n, 1_234_567n, 100)).toThrow('tx fee (1234567.00 ether) exceeds the configured cap (100.00 ether)')
    expect(() => checkTxFee(10n ** 30n, 10n ** 9n, 0)).not.toThrow()
  })
})
