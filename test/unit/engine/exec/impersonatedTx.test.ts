import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { createTx, createTxFromRLP } from '@ethereumjs/tx'
import { hexToBytes } from '@ethereumjs/util'
import { Wallet } from 'ethers'
import { describe, expect, it } from 'vitest'
import { isImpersonatedTx, placeholderSignature } from '../../../../src/engine/exec/impersonatedTx.js'
import { customCrypto } from '../../../../src/util/crypto.js'

/* The placeholder signature of an impersonated sender's transaction, told apart from a real one. */

const common = createCustomCommon({ chainId: 43112, name: 'avalanche-43112' }, Mainnet, { hardfork: 'cancun', customCrypto })
const base = { type: 2, nonce: 0n, gasLimit: 21_000n, to: `0x${'77'.repeat(20)}` as `0x${string}`, value: 1n, maxFeePerGas: 10n, maxPriorityFeePerGas: 1n, chainId: 43112n } as const

describe('placeholder signature', () => {
  it('r is 2^160 + the sender (the zero address included: never 0), s is 1', () => {
    expect(placeholderSignature(new Uint8Array(20))).toEqual({ r: 1n << 160n, s: 1n })
    expect(placeholderSignature(hexToBytes(`0x${'ff'.repeat(20)}`))).toEqual({ r: (1n << 161n) - 1n, s: 1n })
  })

  it('marks the transaction: each sender its own hash; a real signature is not one', async () => {
    const signed = (sender: string) => createTx({ ...base, v: 0n, ...placeholderSignature(hexToBytes(sender as `0x${string}`)) }, { common })
    const [a, b] = [signed(`0x${'0a'.repeat(20)}`), signed(`0x${'0b'.repeat(20)}`)]
    expect(isImpersonatedTx(a) && isImpersonatedTx(b)).toBe(true)
    expect(a.hash()).not.toEqual(b.hash())
    const raw = await new Wallet(`0x${'11'.repeat(32)}`).signTransaction({ ...base, nonce: 0 })
    expect(isImpersonatedTx(createTxFromRLP(hexToBytes(raw as `0x${string}`), { common }))).toBe(false)
  })
})
