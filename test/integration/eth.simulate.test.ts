import { AbiCoder, Wallet, getAddress, id, toBeHex, zeroPadValue } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy, ewoq, iface } from '../helpers/chain.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'
import { connectClient, type RpcClient } from '../helpers/transport.js'
import { validateResult } from '../conformance/openrpc.js'

const probeIface = iface('Probe')
const tokenIface = iface('TestToken')
const word = (n: bigint | number) => zeroPadValue(toBeHex(n), 32)
const errorString = (reason: string) => id('Error(string)').slice(0, 10) + AbiCoder.defaultAbiCoder().encode(['string'], [reason]).slice(2)
const TRANSFER_TOPIC = id('Transfer(address,address,uint256)')
const ETH_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const hex = (n: bigint | number) => '0x' + n.toString(16)

describe.each(['http', 'ws'] as const)('eth_simulateV1 over %s', (transport) => {
  let node: TestNode
  let client: RpcClient
  let probe: string
  let token: string
  const alice = Wallet.createRandom().address.toLowerCase()
  const bob = Wallet.createRandom().address.toLowerCase()
  const sender = ewoq.address.toLowerCase()

  beforeAll(async () => {
    node = await startTestNode()
    client = await connectClient(node, transport)
    probe = (await deploy(node, 'Probe')).address.toLowerCase()
    token = (await deploy(node, 'TestToken', [1000n])).address.toLowerCase()
  })
  afterAll(async () => {
    await client?.close()
    await node?.close()
  })

  const simulate = (payload: unknown, block: unknown = 'latest') => client.rpc('eth_simulateV1', [payload, block])

  it('simulates several blocks on top of latest: numbers, times (+12 s), parent hashes, state carried over', async () => {
    const head = await node.call('eth_getBlockByNumber', ['latest', false])
    const r = await simulate({
      blockStateCalls: [
        { stateOverrides: { [alice]: { balance: '0x3e8' } }, calls: [{ from: alice, to: bob, value: '0x3e8' }] },
        { calls: [{ from: bob, to: alice, value: '0x1f4' }] },
        { blockOverrides: { number: hex(BigInt(head.number) + 5n) }, calls: [] },
      ],
    })
    expect(r.error).toBeUndefined()
    const blocks = r.result as any[]
    expect(validateResult('eth_simulateV1', blocks).errors).toEqual([])
    // Block numbers 1..5 above the head: the gap before the third is filled with empty blocks.
    expect(blocks.map((b) => BigInt(b.number) - BigInt(head.number))).toEqual([1n, 2n, 3n, 4n, 5n])
    expect(blocks.map((b) => BigInt(b.timestamp) - BigInt(head.timestamp))).toEqual([12n, 24n, 36n, 48n, 60n])
    expect(blocks[0].parentHash).toBe(head.hash)
    for (let i = 1; i < blocks.length; i++) expect(blocks[i].parentHash).toBe(blocks[i - 1].hash)
    expect(blocks[0].baseFeePerGas).toBe('0x0')
    expect(blocks[0].calls).toEqual([{ returnData: '0x', logs: [], gasUsed: '0x5208', maxUsedGas: '0x5208', status: '0x1' }])
    expect(blocks[1].calls[0].status).toBe('0x1') // bob spends what he received in the block before
    expect(blocks[0].transactions).toHaveLength(1)
    expect(blocks[0].gasUsed).toBe('0x5208')
    // Nothing was kept.
    expect(await node.call('eth_getBalance', [bob, 'latest'])).toBe('0x0')
    expect(await node.call('eth_blockNumber')).toBe(head.number)
  })

  it('runs contract calls with logs, full transactions with `from`, and block overrides the EVM sees', async () => {
    const coinbase = Wallet.createRandom().address.toLowerCase()
    const r = await simulate({
      blockStateCalls: [
        {
          blockOverrides: { time: hex(2_000_000_000), gasLimit: '0x1c9c380', feeRecipient: coinbase, baseFeePerGas: '0x7' },
          calls: [
            { from: sender, to: probe, input: probeIface.encodeFunctionData('set', [7n]), maxFeePerGas: '0x7' },
            { from: sender, to: probe, input: probeIface.encodeFunctionData('context'), maxFeePerGas: '0x7' },
            { from: sender, to: token, input: tokenIface.encodeFunctionData('transfer', [alice, 5n]), maxFeePerGas: '0x7' },
          ],
        },
      ],
      returnFullTransactions: true,
    })
    expect(r.error).toBeUndefined()
    const [block] = r.result as any[]
    expect(validateResult('eth_simulateV1', r.result).errors).toEqual([])
    expect(block.miner).toBe(coinbase)
    expect(block.baseFeePerGas).toBe('0x7')
    const [set, context, transfer] = block.calls
    expect(set.logs).toHaveLength(1)
    expect(set.logs[0]).toMatchObject({ address: probe, blockHash: block.hash, blockNumber: block.number, transactionIndex: '0x0', logIndex: '0x0', transactionHash: block.transactions[0].hash })
    const [, number, timestamp, basefee, cb, gasLimit] = probeIface.decodeFunctionResult('context', context.returnData)
    expect([number, timestamp, basefee, cb.toLowerCase(), gasLimit]).toEqual([BigInt(block.number), 2_000_000_000n, 7n, coinbase, 30_000_000n])
    expect(transfer.logs[0].topics[0]).toBe(TRANSFER_TOPIC)
    expect(transfer.logs[0].logIndex).toBe('0x1') // indexes run across the block
    expect(block.transactions.map((t: any) => t.from)).toEqual([sender, sender, sender])
    expect(block.transactions[0]).toMatchObject({ blockHash: block.hash, to: probe, type: '0x2', transactionIndex: '0x0' })
    expect(BigInt(block.gasUsed)).toBe(block.calls.reduce((n: bigint, c: any) => n + BigInt(c.gasUsed), 0n))
  })

  it('reports reverts and VM errors inside the call results (code 3 with data, -32015), not as request errors', async () => {
    const r = await simulate({
      blockStateCalls: [
        {
          calls: [
            { from: sender, to: probe, input: probeIface.encodeFunctionData('fail', ['nope']) },
            { from: sender, to: probe, input: probeIface.encodeFunctionData('burn', [1000n]), gas: '0x7530' },
            { from: sender, to: probe, input: probeIface.encodeFunctionData('stored') },
          ],
        },
      ],
    })
    expect(r.error).toBeUndefined()
    const [reverted, oog, ok] = (r.result as any[])[0].calls
    expect(reverted).toMatchObject({ status: '0x0', returnData: '0x', error: { code: 3, message: 'execution reverted: nope', data: errorString('nope') } })
    expect(oog).toMatchObject({ status: '0x0', gasUsed: '0x7530', error: { code: -32015, message: 'out of gas' } })
    expect(ok.status).toBe('0x1')
  })

  it('applies state overrides per block (code, storage, balance, nonce) and sees BLOCKHASH of simulated blocks', async () => {
    // BLOCKHASH(NUMBER - 1) returned as one word.
    const prevHashCode = '0x600143034060005260206000f3'
    const target = Wallet.createRandom().address.toLowerCase()
    const r = await simulate({
      blockStateCalls: [
        { stateOverrides: { [probe]: { stateDiff: { [word(0)]: word(99) } } }, calls: [{ to: probe, input: probeIface.encodeFunctionData('stored') }] },
        { stateOverrides: { [target]: { code: prevHashCode } }, calls: [{ to: target }] },
        { stateOverrides: { [probe]: { state: {} } }, calls: [{ to: probe, input: probeIface.encodeFunctionData('stored') }] },
      ],
    })
    expect(r.error).toBeUndefined()
    const blocks = r.result as any[]
    expect(blocks[0].calls[0].returnData).toBe(word(99))
    expect(blocks[1].calls[0].returnData).toBe(blocks[0].hash)
    expect(blocks[2].calls[0].returnData).toBe(word(0))
  })

  it('moves a precompile with movePrecompileToAddress', async () => {
    const moved = '0x0000000000000000000000000000000000123456'
    const r = await simulate({
      blockStateCalls: [
        {
          stateOverrides: { '0x0000000000000000000000000000000000000004': { movePrecompileToAddress: moved } },
          calls: [
            { to: moved, input: '0x1234' },
            { to: '0x0000000000000000000000000000000000000004', input: '0x1234' },
          ],
        },
      ],
    })
    expect(r.error).toBeUndefined()
    expect((r.result as any[])[0].calls.map((c: any) => c.returnData)).toEqual(['0x1234', '0x'])
  })

  it('logs ETH transfers as ERC-20 Transfer events from 0xEeee…EEeE with traceTransfers', async () => {
    const r = await simulate({
      blockStateCalls: [{ stateOverrides: { [alice]: { balance: '0x7d0' } }, calls: [{ from: alice, to: bob, value: '0x3e8' }] }],
      traceTransfers: true,
    })
    expect(r.error).toBeUndefined()
    const [log] = (r.result as any[])[0].calls[0].logs
    expect(log).toMatchObject({
      address: ETH_ADDRESS,
      topics: [TRANSFER_TOPIC, zeroPadValue(alice, 32), zeroPadValue(bob, 32)],
      data: word(1000),
      logIndex: '0x0',
    })
    const quiet = await simulate({ blockStateCalls: [{ stateOverrides: { [alice]: { balance: '0x7d0' } }, calls: [{ from: alice, to: bob, value: '0x3e8' }] }] })
    expect((quiet.result as any[])[0].calls[0].logs).toEqual([])
  })

  it("answers geth's validation errors and codes", async () => {
    const err = async (payload: unknown, block?: unknown) => (await simulate(payload, block)).error
    expect(await err({ blockStateCalls: [] })).toEqual({ code: -32602, message: 'empty input' })
    expect(await err({ blockStateCalls: Array(257).fill({}) })).toEqual({ code: -38026, message: 'too many blocks' })
    expect(await err({ blockStateCalls: [{ blockOverrides: { number: '0x1000' } }] })).toEqual({ code: -38026, message: 'too many blocks' })
    const head = BigInt(await node.call('eth_blockNumber'))
    expect(await err({ blockStateCalls: [{ blockOverrides: { number: hex(head + 3n) } }, { blockOverrides: { number: hex(head + 2n) } }] })).toEqual({
      code: -38020,
      message: `block numbers must be in order: ${head + 2n} <= ${head + 3n}`,
    })
    expect(await err({ blockStateCalls: [{ blockOverrides: { time: '0x1' } }] })).toMatchObject({ code: -38021 })
    // A call's gas is what its block has left: Helicon's 20,000,000-gas blocks (20·T), under the 50,000,000 rpc gas cap.
    expect(await err({ blockStateCalls: [{ calls: [{ from: alice, to: bob, value: '0x1' }] }] })).toEqual({
      code: -38014,
      message: `err: insufficient funds for gas * price + value: address ${getAddress(alice)} have 0 want 1 (supplied gas 20000000)`,
    })
    expect(await err({ blockStateCalls: [{ calls: [{ from: alice, to: bob, gas: '0x0' }] }] })).toEqual({ code: -38013, message: 'err: intrinsic gas too low: have 0, want 21000 (supplied gas 0)' })
    expect(
      await err({
        blockStateCalls: [
          {
            blockOverrides: { gasLimit: '0x5208' },
            calls: [
              { from: alice, to: bob },
              { from: alice, to: bob, gas: '0x5208' },
            ],
          },
        ],
      }),
    ).toEqual({ code: -38015, message: 'block gas limit reached: remaining: 0, required: 21000' })
    expect(await err({ blockStateCalls: [{ calls: [{ from: sender, to: bob, nonce: '0x0' }] }], validation: true })).toMatchObject({ code: -38010 })
    expect(await err({ blockStateCalls: [{ calls: [{ from: sender, to: bob, nonce: '0xffff' }] }], validation: true })).toMatchObject({ code: -38011 })
    expect(await err({ blockStateCalls: [{ calls: [{ from: sender, to: bob }] }], validation: true })).toMatchObject({
      code: -38012,
      message: expect.stringContaining('max fee per gas less than block base fee'),
    })
    expect(await err({ blockStateCalls: [{ stateOverrides: { [alice]: { movePrecompileToAddress: bob } } }] })).toEqual({ code: -32000, message: `account ${getAddress(alice)} is not a precompile` })
    expect(await err({ blockStateCalls: [{}] }, '0xffffff')).toEqual({ code: -32000, message: 'header not found' })
  })

  it('with validation: base fee from the fee state, nonces checked and carried across calls', async () => {
    const nonce = BigInt(await node.call('eth_getTransactionCount', [sender, 'latest']))
    const r = await simulate({
      blockStateCalls: [
        {
          calls: [
            { from: sender, to: bob, value: '0x1', maxFeePerGas: '0x174876e800', nonce: hex(nonce) },
            { from: sender, to: bob, value: '0x1', maxFeePerGas: '0x174876e800' },
          ],
        },
      ],
      validation: true,
    })
    expect(r.error).toBeUndefined()
    const [block] = r.result as any[]
    expect(BigInt(block.baseFeePerGas) > 0n).toBe(true)
    expect(block.calls.map((c: any) => c.status)).toEqual(['0x1', '0x1'])
  })
})
