/** geth SignTransactionResult JSON of filled (unsigned) and signed transactions. */
import { createTx } from '@ethereumjs/tx'
import { Hardfork, Mainnet, createCustomCommon } from '@ethereumjs/common'
import { describe, expect, it } from 'vitest'
import { signTxResult } from '../../../src/rpc/signTxResult.js'
import { EWOQ_KEY } from '../../helpers/constants.js'

const common = createCustomCommon({ chainId: 43112 }, Mainnet, { hardfork: Hardfork.Cancun })
const KEY = Buffer.from(EWOQ_KEY.slice(2), 'hex')
const base = { nonce: 1n, gasLimit: 21000n, to: `0x${'11'.repeat(20)}` as const, value: 5n, chainId: 43112n }

describe('signTxResult', () => {
  it('an unsigned legacy tx is not protected: no chainId, v = r = s = 0', () => {
    const { tx } = signTxResult(createTx({ ...base, type: 0, gasPrice: 7n }, { common }))
    expect(Object.keys(tx)).toEqual(['type', 'nonce', 'to', 'gas', 'gasPrice', 'value', 'input', 'v', 'r', 's', 'hash'])
    expect(tx.v).toBe('0x0')
  })

  it('a signed EIP-155 legacy tx carries its chain ID', () => {
    const { tx } = signTxResult(createTx({ ...base, type: 0, gasPrice: 7n }, { common }).sign(KEY))
    expect(tx.chainId).toBe('0xa868')
    expect([43112n * 2n + 35n, 43112n * 2n + 36n].map((v) => '0x' + v.toString(16))).toContain(tx.v)
  })

  it('a filled EIP-1559 tx also shows gasPrice (its fee cap), a signed one does not; hash is tx.Hash()', () => {
    const unsigned = createTx({ ...base, type: 2, maxFeePerGas: 9n, maxPriorityFeePerGas: 2n }, { common })
    const filled = signTxResult(unsigned, { filled: true }).tx
    expect(filled).toMatchObject({ type: '0x2', chainId: '0xa868', maxPriorityFeePerGas: '0x2', maxFeePerGas: '0x9', gasPrice: '0x9', accessList: [], yParity: '0x0' })
    const signed = unsigned.sign(KEY)
    const out = signTxResult(signed).tx
    expect(out.gasPrice).toBeUndefined()
    expect(out.hash).toBe('0x' + Buffer.from(signed.hash()).toString('hex'))
  })
})
