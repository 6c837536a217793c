import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Transaction, Wallet, getAddress, hexlify, toUtf8Bytes, verifyMessage } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ETH_APIS } from '../../src/ethApiNames.js'
import { waitReceipt } from '../helpers/chain.js'
import { SkipClock } from '../helpers/clock.js'
import { EWOQ_ADDRESS, EWOQ_KEY, startTestNode, type TestNode } from '../helpers/testNode.js'

const WITH_ACCOUNTS = [...DEFAULT_ETH_APIS, 'internal-account', 'internal-personal']
const EWOQ = EWOQ_ADDRESS.toLowerCase()
const PASSWORD = 'correct horse battery staple'
const MESSAGE = hexlify(toUtf8Bytes('hello C-Chain'))
const STRANGER = '0x1111111111111111111111111111111111111111'

const notAvailable = (method: string) => ({ code: -32601, message: `the method ${method} does not exist/is not available` })
const serverError = (message: string) => ({ code: -32000, message })

describe('personal_ and account methods: off by default (docs/SECURITY.md, E9)', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  it("answers -32601 with geth's text for personal_ and the signing methods", async () => {
    for (const [m, params] of [
      ['personal_listAccounts', []],
      ['personal_newAccount', ['pw']],
      ['personal_importRawKey', [EWOQ_KEY.slice(2), 'pw']],
      ['personal_unlockAccount', [EWOQ, 'pw']],
      ['personal_lockAccount', [EWOQ]],
      ['personal_sign', [MESSAGE, EWOQ, 'pw']],
      ['personal_ecRecover', [MESSAGE, '0x' + '00'.repeat(65)]],
      ['personal_sendTransaction', [{ from: EWOQ }, 'pw']],
      ['personal_signTransaction', [{ from: EWOQ }, 'pw']],
      ['eth_sign', [EWOQ, MESSAGE]],
      ['eth_signTransaction', [{ from: EWOQ }]],
      ['eth_sendTransaction', [{ from: EWOQ, to: STRANGER }]],
    ] as const) {
      expect((await node.rpc(m, params)).error, m).toEqual(notAvailable(m))
    }
  })

  it('eth_accounts is [] and eth_signTypedData_v4 does not exist (coreth has no typed-data signing)', async () => {
    expect(await node.call('eth_accounts')).toEqual([])
    expect((await node.rpc('eth_signTypedData_v4', [EWOQ, {}])).error).toEqual(notAvailable('eth_signTypedData_v4'))
  })
})

describe('personal_ and account methods with internal-personal and internal-account', () => {
  let node: TestNode
  let created: string
  const clock = new SkipClock()
  beforeAll(async () => {
    node = await startTestNode({ chain: { 'eth-apis': WITH_ACCOUNTS }, now: clock.now })
    // One KDF each (scrypt N=2^18): import the funded ewoq key, create a fresh one.
    expect(await node.call('personal_importRawKey', [EWOQ_KEY.slice(2), PASSWORD])).toBe(EWOQ)
    created = await node.call('personal_newAccount', ['another password'])
  }, 60_000)
  afterAll(() => node.close())

  it('personal_newAccount answers a checksummed address; listAccounts and eth_accounts list both', async () => {
    expect(created).toBe(getAddress(created))
    const list = await node.call('personal_listAccounts')
    expect([...list].sort()).toEqual([EWOQ, created.toLowerCase()].sort())
    expect(await node.call('eth_accounts')).toEqual(list)
    expect((await node.rpc('personal_importRawKey', [EWOQ_KEY, PASSWORD])).error).toEqual(serverError('account already exists'))
  })

  it('keeps each key as geth names it, in Web3 Secret Storage that ethers decrypts', async () => {
    const dir = join(node.dataDir, 'keystore')
    const files = readdirSync(dir)
    expect(files).toHaveLength(2)
    for (const f of files) expect(f).toMatch(/^UTC--\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d(\.\d+)?Z--[0-9a-f]{40}$/)
    const file = files.find((f) => f.endsWith(EWOQ.slice(2)))!
    const json = readFileSync(join(dir, file), 'utf8')
    expect(JSON.parse(json)).toMatchObject({ version: 3, address: EWOQ.slice(2), crypto: { cipher: 'aes-128-ctr', kdf: 'scrypt', kdfparams: { n: 262144, r: 8, p: 1, dklen: 32 } } })
    const wallet = await Wallet.fromEncryptedJson(json, PASSWORD)
    expect(wallet.address).toBe(EWOQ_ADDRESS)
    expect(wallet.privateKey).toBe(EWOQ_KEY)
  }, 60_000)

  it("refuses a locked account, a wrong password and an unknown account with geth's wording", async () => {
    expect((await node.rpc('eth_sign', [EWOQ, MESSAGE])).error).toEqual(serverError('authentication needed: password or unlock'))
    expect((await node.rpc('eth_sendTransaction', [{ from: EWOQ, to: STRANGER, value: '0x1' }])).error).toEqual(serverError('authentication needed: password or unlock'))
    expect((await node.rpc('personal_unlockAccount', [EWOQ, 'wrong'])).error).toEqual(serverError('could not decrypt key with given password'))
    expect((await node.rpc('personal_sign', [MESSAGE, EWOQ, 'wrong'])).error).toEqual(serverError('could not decrypt key with given password'))
    expect((await node.rpc('eth_sign', [STRANGER, MESSAGE])).error).toEqual(serverError('unknown account'))
    expect((await node.rpc('personal_sign', [MESSAGE, STRANGER, PASSWORD])).error).toEqual(serverError('unknown account'))
    expect((await node.rpc('eth_sendTransaction', [{ from: STRANGER, to: EWOQ }])).error).toEqual(serverError('unknown account'))
    expect((await node.rpc('personal_unlockAccount', [STRANGER, PASSWORD])).error).toEqual(serverError('no key for given address or file'))
    expect((await node.rpc('personal_unlockAccount', [EWOQ, PASSWORD, 9223372037])).error).toEqual(serverError('unlock duration too large'))
    expect((await node.rpc('personal_unlockAccount', [EWOQ, PASSWORD, '0x1'])).error?.code).toBe(-32602)
  }, 30_000)

  it('personal_unlockAccount with a 1 s duration: eth_sign works, then the account locks itself', async () => {
    expect(await node.call('personal_unlockAccount', [EWOQ, PASSWORD, 1])).toBe(true)
    const sig = await node.call('eth_sign', [EWOQ, MESSAGE])
    expect(verifyMessage(toUtf8Bytes('hello C-Chain'), sig)).toBe(EWOQ_ADDRESS)
    expect(await node.call('personal_ecRecover', [MESSAGE, sig])).toBe(EWOQ)
    // The second passes on the node's clock, skipped rather than slept.
    clock.advance(1000)
    expect((await node.rpc('eth_sign', [EWOQ, MESSAGE])).error).toEqual(serverError('authentication needed: password or unlock'))
  }, 30_000)

  it('personal_unlockAccount with 0 holds until personal_lockAccount', async () => {
    expect(await node.call('personal_unlockAccount', [EWOQ, PASSWORD, 0])).toBe(true)
    clock.advance(1100)
    expect((await node.rpc('eth_sign', [EWOQ, MESSAGE])).result).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await node.call('personal_lockAccount', [EWOQ])).toBe(true)
    expect((await node.rpc('eth_sign', [EWOQ, MESSAGE])).error).toEqual(serverError('authentication needed: password or unlock'))
    // geth: locking an unknown or locked account is not an error.
    expect(await node.call('personal_lockAccount', [STRANGER])).toBe(true)
  }, 30_000)

  it('personal_sign and personal_ecRecover round-trip (ethers verifyMessage agrees)', async () => {
    const sig = await node.call('personal_sign', [MESSAGE, EWOQ, PASSWORD])
    expect(sig).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/)
    expect(verifyMessage(toUtf8Bytes('hello C-Chain'), sig)).toBe(EWOQ_ADDRESS)
    expect(await node.call('personal_ecRecover', [MESSAGE, sig])).toBe(EWOQ)
    expect((await node.rpc('personal_ecRecover', [MESSAGE, sig.slice(0, -2) + '01'])).error).toEqual(serverError('invalid Ethereum signature (V is not 27 or 28)'))
    expect((await node.rpc('personal_ecRecover', [MESSAGE, '0x1234'])).error).toEqual(serverError('signature must be 65 bytes long'))
  }, 30_000)

  it("eth_sendTransaction fills geth's defaults, signs with the unlocked key and the transaction is mined", async () => {
    expect(await node.call('personal_unlockAccount', [EWOQ, PASSWORD])).toBe(true)
    const hash = await node.call('eth_sendTransaction', [{ from: EWOQ, to: created, value: '0xde0b6b3a7640000' }])
    const receipt = await waitReceipt(node, hash)
    expect(receipt.status).toBe('0x1')
    const tx = await node.call('eth_getTransactionByHash', [hash])
    expect(tx).toMatchObject({ from: EWOQ, to: created.toLowerCase(), value: '0xde0b6b3a7640000', type: '0x2', gas: '0x5208', chainId: '0xa868' })
    expect(await node.call('eth_getBalance', [created, 'latest'])).toBe('0xde0b6b3a7640000')
    await node.call('personal_lockAccount', [EWOQ])
  }, 30_000)

  it('personal_sendTransaction signs with the password, without unlocking', async () => {
    const hash = await node.call('personal_sendTransaction', [{ from: EWOQ, to: STRANGER, value: '0x2a', gasPrice: '0x174876e800' }, PASSWORD])
    const receipt = await waitReceipt(node, hash)
    expect(receipt.status).toBe('0x1')
    expect((await node.call('eth_getTransactionByHash', [hash])).type).toBe('0x0')
    expect((await node.rpc('personal_sendTransaction', [{ from: EWOQ, to: STRANGER }, 'wrong'])).error).toEqual(serverError('could not decrypt key with given password'))
    expect((await node.rpc('eth_sign', [EWOQ, MESSAGE])).error).toEqual(serverError('authentication needed: password or unlock'))
  }, 30_000)

  it('eth_signTransaction and personal_signTransaction answer {raw, tx} that ethers decodes, not submitted', async () => {
    const nonce = await node.call('eth_getTransactionCount', [EWOQ, 'pending'])
    const args = { from: EWOQ, to: STRANGER, gas: '0x5208', maxFeePerGas: '0x174876e800', maxPriorityFeePerGas: '0x3b9aca00', nonce, value: '0x7' }
    expect((await node.rpc('eth_signTransaction', [args])).error).toEqual(serverError('authentication needed: password or unlock'))
    expect((await node.rpc('eth_signTransaction', [{ ...args, gas: undefined }])).error).toEqual(serverError('gas not specified'))
    expect((await node.rpc('eth_signTransaction', [{ ...args, nonce: undefined }])).error).toEqual(serverError('nonce not specified'))
    expect((await node.rpc('personal_signTransaction', [{ ...args, from: undefined }, PASSWORD])).error).toEqual(serverError('sender not specified'))

    const signed = await node.call('personal_signTransaction', [args, PASSWORD])
    const decoded = Transaction.from(signed.raw)
    expect(decoded.from).toBe(EWOQ_ADDRESS)
    expect(decoded.hash).toBe(signed.tx.hash)
    expect(decoded.chainId).toBe(43112n)
    expect(signed.tx).toMatchObject({ type: '0x2', chainId: '0xa868', nonce, to: STRANGER, gas: '0x5208', value: '0x7', input: '0x', accessList: [] })

    await node.call('personal_unlockAccount', [EWOQ, PASSWORD, 0])
    const again = await node.call('eth_signTransaction', [args])
    expect(again.raw).toBe(signed.raw) // RFC 6979: same key, same transaction, same signature
    await node.call('personal_lockAccount', [EWOQ])
    // Not submitted: the pending nonce did not move.
    expect(await node.call('eth_getTransactionCount', [EWOQ, 'pending'])).toBe(nonce)
    expect(await node.call('eth_sendRawTransaction', [signed.raw])).toBe(signed.tx.hash)
    expect((await waitReceipt(node, signed.tx.hash)).status).toBe('0x1')
  }, 30_000)

  it('accounts survive a restart, locked', async () => {
    await node.stop()
    const restarted = await startTestNode({ dataDir: node.dataDir, chain: { 'eth-apis': WITH_ACCOUNTS } })
    try {
      expect([...(await restarted.call('personal_listAccounts'))].sort()).toEqual([EWOQ, created.toLowerCase()].sort())
      expect((await restarted.rpc('eth_sign', [EWOQ, MESSAGE])).error).toEqual(serverError('authentication needed: password or unlock'))
    } finally {
      await restarted.stop()
    }
  }, 30_000)
})
