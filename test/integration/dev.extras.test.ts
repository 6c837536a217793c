/**
 * The last of viem's test actions (issue 15): sendUnsignedTransaction (anvil's eth_sendUnsignedTransaction)
 * and setLoggingEnabled (anvil_setLoggingEnabled / hardhat_setLoggingEnabled).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitReceipt } from '../helpers/chain.js'
import { devTestClient } from '../helpers/devClients.js'
import { capturedLog } from '../helpers/log.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

const FROM = '0x00000000000000000000000000000000000f00d1' as const
const TO = '0x00000000000000000000000000000000000f00d2' as const

describe('eth_sendUnsignedTransaction', () => {
  let tn: TestNode
  beforeAll(async () => {
    tn = await startTestNode()
  })
  afterAll(() => tn?.close())

  it("sends as `from` without a signature, impersonated or not (viem's sendUnsignedTransaction)", async () => {
    const client = devTestClient(tn, 'anvil')
    await client.setBalance({ address: FROM, value: 10n ** 18n })
    const hash = await client.sendUnsignedTransaction({ from: FROM, to: TO, value: 1234n })
    const receipt = await waitReceipt(tn, hash)
    expect(receipt.status).toBe('0x1')
    expect(receipt.from).toBe(FROM)
    expect(await tn.call('eth_getBalance', [TO, 'latest'])).toBe('0x4d2')
    // Raw: the same again, by name; without `from` anvil's answer.
    const again = await tn.call('eth_sendUnsignedTransaction', [{ from: FROM, to: TO, value: '0x1' }])
    expect((await waitReceipt(tn, again)).from).toBe(FROM)
    expect((await tn.rpc('eth_sendUnsignedTransaction', [{ to: TO, value: '0x1' }])).error).toEqual({ code: -32000, message: 'No signer available' })
  })
})

describe("anvil's aliases of hardhat's and ganache's names (viem's test client in hardhat mode sends them)", () => {
  it('hardhat_dumpState / hardhat_loadState, hardhat_autoImpersonateAccount, hardhat_dropAllTransactions, evm_setAccountNonce', async () => {
    const tn = await startTestNode()
    try {
      expect(await tn.call('evm_setAccountNonce', [FROM, '0x5'])).toBeNull()
      expect(await tn.call('eth_getTransactionCount', [FROM, 'latest'])).toBe('0x5')
      await tn.call('anvil_setBalance', [FROM, '0xde0b6b3a7640000'])
      const dump = await tn.call('hardhat_dumpState', [])
      expect(dump).toMatch(/^0x1f8b/)
      await tn.call('anvil_reset', [])
      expect(await tn.call('eth_getTransactionCount', [FROM, 'latest'])).toBe('0x0')
      expect(await tn.call('hardhat_loadState', [dump])).toBe(true)
      expect(await tn.call('eth_getTransactionCount', [FROM, 'latest'])).toBe('0x5')
      expect(await tn.call('eth_getBalance', [FROM, 'latest'])).toBe('0xde0b6b3a7640000')

      expect(await tn.call('hardhat_autoImpersonateAccount', [true])).toBeNull()
      await tn.call('evm_setAutomine', [false])
      const hash = await tn.call('eth_sendTransaction', [{ from: FROM, to: TO, value: '0x1' }])
      expect((await tn.call('eth_getTransactionByHash', [hash])).from).toBe(FROM)
      expect(await tn.call('hardhat_dropAllTransactions', [])).toBeNull()
      expect(await tn.call('eth_getTransactionByHash', [hash])).toBeNull()
      await tn.call('evm_setAutomine', [true])
      expect(await tn.call('hardhat_autoImpersonateAccount', [false])).toBeNull()
      expect((await tn.rpc('eth_sendTransaction', [{ from: FROM, to: TO, value: '0x1' }])).error?.code).toBe(-32601)
    } finally {
      await tn.close()
    }
  })
})

describe('request logging', () => {
  it('anvil_setLoggingEnabled logs each call until hardhat_setLoggingEnabled turns it off', async () => {
    const captured = capturedLog('info')
    const tn = await startTestNode({ log: captured.log })
    try {
      await tn.call('eth_chainId', [])
      expect(captured.text()).not.toContain('"method":"eth_chainId"')
      expect(await tn.call('anvil_setLoggingEnabled', [true])).toBeNull()
      await tn.call('eth_blockNumber', [])
      expect(captured.text()).toContain('"method":"eth_blockNumber"')
      expect(await tn.call('hardhat_setLoggingEnabled', [false])).toBe(true)
      await tn.call('eth_gasPrice', [])
      expect(captured.text()).not.toContain('"method":"eth_gasPrice"')
    } finally {
      await tn.close()
    }
  })
})
