import { Wallet, zeroPadValue, toBeHex } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytecode, deploy, ewoq, iface, send } from '../helpers/chain.js'
import { EWOQ_ADDRESS, contracts, startTestNode, type TestNode } from '../helpers/testNode.js'

const GENESIS_BALANCE = 0x295be96e64066972000000n
const UNKNOWN_HASH = '0x' + 'ab'.repeat(32)

describe('account state at a block (eth_getBalance, eth_getTransactionCount, eth_getCode, eth_getStorageAt)', () => {
  let node: TestNode
  let probe: string
  let deployBlock: string
  let transfer: any // receipt of the 1 AVAX transfer
  let setBlock: any // the block of Probe.set(42)
  const bob = Wallet.createRandom().address

  beforeAll(async () => {
    node = await startTestNode()
    const d = await deploy(node, 'Probe')
    probe = d.address
    deployBlock = d.receipt.blockNumber
    transfer = (await send(node, { to: bob, value: 10n ** 18n })).receipt
    const set = await send(node, { to: probe, data: iface('Probe').encodeFunctionData('set', [42n]), gasLimit: 100_000n })
    setBlock = await node.call('eth_getBlockByHash', [set.receipt.blockHash, false])
  })
  afterAll(() => node.close())

  it('eth_getBalance: the genesis allocation of ewoq at block 0 and earliest', async () => {
    expect(await node.call('eth_getBalance', [EWOQ_ADDRESS, '0x0'])).toBe('0x295be96e64066972000000')
    expect(await node.call('eth_getBalance', [EWOQ_ADDRESS, 'earliest'])).toBe('0x295be96e64066972000000')
    expect(await node.call('eth_getBalance', [bob, '0x0'])).toBe('0x0')
  })

  it('eth_getBalance: exact balances after a transfer (value + gasUsed * effectiveGasPrice)', async () => {
    expect(await node.call('eth_getBalance', [bob, 'latest'])).toBe('0xde0b6b3a7640000')
    expect(await node.call('eth_getBalance', [bob, transfer.blockNumber])).toBe('0xde0b6b3a7640000')
    expect(await node.call('eth_getBalance', [bob, deployBlock])).toBe('0x0')
    const receipts = [...(await node.call('eth_getBlockReceipts', ['0x1'])), transfer, await node.call('eth_getBlockReceipts', ['latest']).then((r: any) => r[0])]
    const fees = receipts.reduce((s: bigint, r: any) => s + BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice), 0n)
    expect(BigInt(await node.call('eth_getBalance', [EWOQ_ADDRESS, 'latest']))).toBe(GENESIS_BALANCE - 10n ** 18n - fees)
    // The address is case-insensitive on input.
    expect(await node.call('eth_getBalance', [bob.toLowerCase(), 'latest'])).toBe('0xde0b6b3a7640000')
  })

  it('the same state by block number, block hash and EIP-1898 objects', async () => {
    const at = (ref: unknown) => node.call('eth_getBalance', [bob, ref])
    const hash = (await node.call('eth_getBlockByNumber', [transfer.blockNumber, false])).hash
    expect(await at(hash)).toBe('0xde0b6b3a7640000')
    expect(await at({ blockHash: hash })).toBe('0xde0b6b3a7640000')
    expect(await at({ blockHash: hash, requireCanonical: true })).toBe('0xde0b6b3a7640000')
    expect(await at({ blockNumber: deployBlock })).toBe('0x0')
    expect(await at('pending')).toBe('0xde0b6b3a7640000')
    // Helicon: safe and finalized are the last settled block (the head's settledHeight).
    const settled = (await node.call('eth_getBlockByNumber', ['latest', false])).settledHeight
    expect(await at('safe')).toBe(await at(settled))
    expect(await at('finalized')).toBe(await at(settled))
  })

  it('an unknown block is geth\'s "header not found" (-32000); omitting the tag means latest', async () => {
    expect((await node.rpc('eth_getBalance', [bob, '0x3e8'])).error).toEqual({ code: -32000, message: 'header not found' })
    expect((await node.rpc('eth_getBalance', [bob, UNKNOWN_HASH])).error).toEqual({ code: -32000, message: 'header for hash not found' })
    expect(await node.call('eth_getBalance', [bob])).toBe('0xde0b6b3a7640000')
  })

  it('eth_getTransactionCount at blocks, latest and pending', async () => {
    expect(await node.call('eth_getTransactionCount', [EWOQ_ADDRESS, '0x0'])).toBe('0x0')
    expect(await node.call('eth_getTransactionCount', [EWOQ_ADDRESS, deployBlock])).toBe('0x1')
    expect(await node.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest'])).toBe('0x3')
    expect(await node.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'pending'])).toBe('0x3')
    expect(await node.call('eth_getTransactionCount', [bob, 'latest'])).toBe('0x0')
    // A contract's nonce is 1 after creation (EIP-161).
    expect(await node.call('eth_getTransactionCount', [probe, 'latest'])).toBe('0x1')
  })

  it('eth_getCode: runtime bytecode of the deployed contract, 0x before it and for accounts', async () => {
    const runtime = '0x' + (contracts.contracts.Probe.deployedBytecode as string).replace(/^0x/, '')
    expect(await node.call('eth_getCode', [probe, 'latest'])).toBe(runtime.toLowerCase())
    expect(await node.call('eth_getCode', [probe, '0x0'])).toBe('0x')
    expect(await node.call('eth_getCode', [bob, 'latest'])).toBe('0x')
    expect(bytecode('Probe').length).toBeGreaterThan(runtime.length)
  })

  it('eth_getStorageAt: slot 0 holds Probe.stored, 32 bytes, before and after set(42)', async () => {
    const slot0 = await node.call('eth_getStorageAt', [probe, '0x0', 'latest'])
    expect(slot0).toBe(zeroPadValue(toBeHex(42), 32))
    expect(await node.call('eth_getStorageAt', [probe, '0x' + '00'.repeat(32), setBlock.hash])).toBe(slot0)
    const before = BigInt(setBlock.number) - 1n
    expect(await node.call('eth_getStorageAt', [probe, '0x0', '0x' + before.toString(16)])).toBe('0x' + '00'.repeat(32))
    expect(await node.call('eth_getStorageAt', [probe, '0x1', 'latest'])).toBe('0x' + '00'.repeat(32))
    const long = await node.rpc('eth_getStorageAt', [probe, '0x' + '00'.repeat(33), 'latest'])
    // geth decodes the key in the handler: -32602 without "invalid argument N" (internal/ethapi decodeStorageKey).
    const tooLong = '0x' + '00'.repeat(33)
    expect(long.error).toEqual({ code: -32602, message: `storage key too long (want at most 32 bytes): "${tooLong}"` })
    expect((await node.rpc('eth_getStorageAt', [probe, '0xasdf', 'latest'])).error).toEqual({ code: -32602, message: 'invalid hex in storage key: "0xasdf"' })
    // Keys without 0x and of odd length are padded, as geth does.
    expect(await node.call('eth_getStorageAt', [probe, '0', 'latest'])).toBe(slot0)
    // An unknown block is reported before a bad key (geth reads the state first).
    expect((await node.rpc('eth_getStorageAt', [probe, '0xzz', '0x3e8'])).error).toEqual({ code: -32000, message: 'header not found' })
  })

  it('eth_getStorageValues: several slots of several accounts at one block (geth 1.16)', async () => {
    const zero = '0x' + '00'.repeat(32)
    const one = '0x' + '00'.repeat(31) + '01'
    expect(await node.call('eth_getStorageValues', [{ [probe]: [zero, one], [bob]: [zero] }, 'latest'])).toEqual({
      [probe.toLowerCase()]: [zeroPadValue(toBeHex(42), 32), zero],
      [bob.toLowerCase()]: [zero],
    })
    const before = '0x' + (BigInt(setBlock.number) - 1n).toString(16)
    expect(await node.call('eth_getStorageValues', [{ [probe]: [zero] }, before])).toEqual({ [probe.toLowerCase()]: [zero] })
    expect((await node.rpc('eth_getStorageValues', [{}, 'latest'])).error).toEqual({ code: -32602, message: 'empty request' })
    const many = Array.from({ length: 1025 }, (_, i) => '0x' + i.toString(16).padStart(64, '0'))
    expect((await node.rpc('eth_getStorageValues', [{ [probe]: many }])).error).toEqual({ code: -38026, message: 'too many slots (max 1024)' })
    expect((await node.rpc('eth_getStorageValues', [{ [probe]: [zero] }, '0x3e8'])).error).toEqual({ code: -32000, message: 'header not found' })
  })

  it('ewoq is the address of the pre-funded key', () => {
    expect(ewoq.address).toBe(EWOQ_ADDRESS)
  })
})
