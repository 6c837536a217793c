import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { Interface, getAddress, getBytes } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Chain, MESSENGER, deployReceiver, eventsIn, ewoq, messenger, read, sendMessage, tempDir, until } from '../helpers/icm.js'
import { contracts, startTestNode, type TestNode } from '../helpers/testNode.js'
import { WARP, chainAt, warp } from '../helpers/warp.js'

/*
 * Teleporter messages between the C-Chain and a subnet-evm chain (docs/L1.md, docs/ICM.md): the
 * repository's example chains, mintchain among them (its transaction allow list on, ewoq its admin),
 * the repository's test messenger at Teleporter's address on both. The relayer's delivery to
 * mintchain is refused by the pool, in subnet-evm's words, until ewoq enables the relayer's address
 * on the allow list; then it is delivered (the Warp predicate verified in a subnet-evm block: the fee
 * window, then the predicate results), and a message from mintchain comes back to the C-Chain with
 * the first message's receipt.
 */

const TX_ALLOW_LIST = '0x0200000000000000000000000000000000000002'
const allowList = new Interface(['function readAllowList(address) view returns (uint256)', 'function setEnabled(address)'])
/** subnet-evm's fee window: the first 80 bytes of a header's extraData (docs/L1.md). */
const FEE_WINDOW = 80

afterAll(() => tempDir.removeAll())

describe('ICM between the C-Chain and a subnet-evm chain (mintchain)', () => {
  let node: TestNode
  let c: Chain
  let mint: Chain
  let relayer: { mode: string; address: string; messenger: string }
  const ids = { c: '', mint: '' }
  let onC: string
  let onMint: string
  let first: Awaited<ReturnType<typeof sendMessage>>

  const blockchainID = async (chain: Chain) =>
    warp.decodeFunctionResult('getBlockchainID', await chain.call('eth_call', [{ to: WARP, data: warp.encodeFunctionData('getBlockchainID') }, 'latest']))[0] as string
  const received = (chain: Chain, id: string) => read(chain, MESSENGER, 'messageReceived', messenger, [id]) as Promise<boolean>

  beforeAll(async () => {
    const chains = tempDir()
    cpSync(join(process.cwd(), 'examples/chains'), chains, { recursive: true })
    node = await startTestNode({ config: { chainConfigDir: chains } as never })
    c = chainAt(node.url)
    mint = chainAt(`http://127.0.0.1:${node.port}/ext/bc/mintchain/rpc`)
    relayer = await node.call('icm_getRelayer')
    for (const chain of [c, mint]) {
      await chain.call('anvil_setCode', [MESSENGER, contracts.contracts.ICMTestMessenger.deployedBytecode])
      await chain.call('anvil_setBalance', [relayer.address, '0x3635c9adc5dea00000'])
    }
    ids.c = await blockchainID(c)
    ids.mint = await blockchainID(mint)
    onC = await deployReceiver(c)
    // ewoq is the deployer allow list's admin on mintchain.
    onMint = await deployReceiver(mint)
  })
  afterAll(() => node?.close())

  it('runs mintchain as a subnet-evm chain, the relayer automatic and not on its transaction allow list', async () => {
    expect(relayer.mode).toBe('auto')
    expect(getAddress(relayer.messenger)).toBe(MESSENGER)
    expect((await mint.call('eth_getActiveRulesAt')).avalancheRules).toMatchObject({ IsSubnetEVM: true, IsDurango: true })
    expect(ids.mint).not.toBe(ids.c)
    expect(await read(mint, TX_ALLOW_LIST, 'readAllowList', allowList, [relayer.address])).toBe(0n)
  })

  it("refuses the relayer's delivery to mintchain, in subnet-evm's words, until ewoq enables it on the transaction allow list", async () => {
    const refusal = `cannot issue transaction from non-allow listed address: ${relayer.address}`
    first = await sendMessage(c, ids.mint, onMint, '0x1234')
    // The automatic delivery was tried and refused by mintchain's pool: listed as failed, with the pool's words.
    await until(async () => (await node.call('icm_pendingMessages')).some((p: any) => p.messageID === first.id && p.status === 'failed'), 'the refused delivery')
    const [listed] = (await node.call('icm_pendingMessages')).filter((p: any) => p.messageID === first.id)
    expect(listed).toMatchObject({ status: 'failed', lastDelivery: { error: refusal }, sourceTransactionHash: first.receipt.transactionHash })
    expect(listed.lastDelivery.transactionHash).toBeUndefined()
    // Asking again is refused the same way; nothing reached mintchain.
    expect(await node.rpc('icm_deliverMessage', [first.id])).toMatchObject({ error: { code: -32000, message: refusal } })
    await mint.call('evm_mine')
    expect(await received(mint, first.id)).toBe(false)
    expect(await read(mint, onMint, 'received')).toBe(0n)
    expect(await mint.call('eth_getTransactionCount', [relayer.address, 'latest'])).toBe('0x0')

    // ewoq, the list's admin, enables the relayer; asking again delivers.
    const enabled = await mint.send({ to: TX_ALLOW_LIST, data: allowList.encodeFunctionData('setEnabled', [relayer.address]), gasLimit: 100_000n })
    expect(enabled.status).toBe('0x1')
    expect(await read(mint, TX_ALLOW_LIST, 'readAllowList', allowList, [relayer.address])).toBe(1n)
    const hash = await node.call('icm_deliverMessage', [first.id])
    const delivery = await mint.call('eth_getTransactionReceipt', [hash])
    expect(delivery.status).toBe('0x1')
    expect(getAddress(delivery.from)).toBe(relayer.address)
    expect(getAddress(delivery.to)).toBe(MESSENGER)
    expect(await received(mint, first.id)).toBe(true)
    expect(await read(mint, onMint, 'received')).toBe(1n)
    expect(await read(mint, onMint, 'lastMessage')).toBe('0x1234')
    expect(await read(mint, onMint, 'lastSource')).toBe(ids.c)
    expect(getAddress(await read(mint, onMint, 'lastSender'))).toBe(ewoq.address)
    const event = (await eventsIn(mint, 'ReceiveCrossChainMessage')).find((e) => e.args.messageID === first.id)!
    expect(getAddress(event.args.deliverer)).toBe(relayer.address)
    expect(event.args.sourceBlockchainID).toBe(ids.c)

    // The block that verified the predicate: subnet-evm's fee window, then predicate results that name the delivery.
    const block = await mint.call('eth_getBlockByNumber', [delivery.blockNumber, false])
    expect(block.transactions).toEqual([hash])
    const extra = getBytes(block.extraData)
    expect(extra.length).toBeGreaterThan(FEE_WINDOW + 6)
    expect(Buffer.from(extra.subarray(FEE_WINDOW)).toString('hex')).toContain(hash.slice(2))
    expect((await node.call('icm_pendingMessages')).filter((p: any) => p.messageID === first.id)).toEqual([])
  })

  it("delivers mintchain -> C-Chain automatically, with the first message's receipt", async () => {
    const back = await sendMessage(mint, ids.c, onC, '0xbeef')
    expect(back.message.receipts.length).toBe(1)
    expect(back.message.receipts[0].receivedMessageNonce).toBe(first.message.messageNonce)
    expect(getAddress(back.message.receipts[0].relayerRewardAddress)).toBe(relayer.address)
    await until(async () => (await read(c, onC, 'received')) === 1n, 'the delivery on the C-Chain')
    expect(await received(c, back.id)).toBe(true)
    expect(await read(c, onC, 'lastMessage')).toBe('0xbeef')
    expect(await read(c, onC, 'lastSource')).toBe(ids.mint)
    expect(getAddress(await read(c, onC, 'lastSender'))).toBe(ewoq.address)
    const delivered = (await eventsIn(c, 'ReceiveCrossChainMessage')).find((e) => e.args.messageID === back.id)!
    expect(getAddress(delivered.args.deliverer)).toBe(relayer.address)
    // The receipt of the first message reached its source: the C-Chain's messenger forgets its hash.
    expect((await eventsIn(c, 'ReceiptReceived')).map((e) => e.args.messageID)).toContain(first.id)
    expect(await read(c, MESSENGER, 'getMessageHash', messenger, [first.id])).toBe(`0x${'00'.repeat(32)}`)
    expect(await node.call('icm_pendingMessages')).toEqual([])
  })

  it('delivers C-Chain -> mintchain automatically once the relayer is enabled', async () => {
    const again = await sendMessage(c, ids.mint, onMint, '0x5678')
    await until(async () => (await read(mint, onMint, 'received')) === 2n, 'the automatic delivery on mintchain')
    expect(await received(mint, again.id)).toBe(true)
    expect(await read(mint, onMint, 'lastMessage')).toBe('0x5678')
    // Its receipt list carries the mintchain -> C-Chain message back.
    expect(again.message.receipts.length).toBe(1)
    expect(await node.call('icm_pendingMessages')).toEqual([])
  })
})
