import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Interface, Transaction, Wallet, getAddress, getCreateAddress } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSENGER, avalancheSdkArtifact, deployReceiver, eventsIn, ewoq, icmNode, messenger, read, receiverAbi, sendMessage, tempDir, until } from '../helpers/icm.js'
import { contracts } from '../helpers/testNode.js'

/*
 * The node's ICM relayer between the C-Chain and an extra chain ("l1"), with a Teleporter-protocol
 * messenger of the repository's own (test/fixtures/contracts/ICMTestMessenger.sol) at Teleporter's
 * address on both: a message sent on one chain is delivered on the other by the relayer (auto), or
 * when asked (manual); receipts go back with the next message; a failed execution is retried; an
 * allowed-relayer list that leaves the relayer out, and a destination the node does not serve, leave
 * the message pending; a revert takes back the send and its delivery; a restart delivers what waited.
 */

afterAll(() => tempDir.removeAll())

/** TeleporterRegistry on avalanche-cli's local C-Chain (docs/ICM.md): ewoq's first contract. */
const REGISTRY = '0x17aB05351fC94a1a67Bf3f56DdbB941aE6c63E25'

describe('the ICM relayer, automatic', () => {
  let t: Awaited<ReturnType<typeof icmNode>>
  let onC: string
  let onL1: string
  beforeAll(async () => {
    t = await icmNode()
    onC = await deployReceiver(t.c)
    onL1 = await deployReceiver(t.l1)
  })
  afterAll(() => t?.node.close())

  it("is on by default on the local network, watching Teleporter's address, from its own account", async () => {
    expect(t.relayer.mode).toBe('auto')
    expect(t.relayer.messenger).toBe(MESSENGER)
    expect(await t.l1.call('icm_getRelayer')).toEqual(t.relayer)
  })

  it('delivers C-Chain -> l1 and back; the answer carries the receipt of the first message', async () => {
    const first = await sendMessage(t.c, t.ids.l1, onL1, '0x1234')
    await until(async () => (await read(t.l1, onL1, 'received')) === 1n, 'the delivery on l1')
    expect(await read(t.l1, onL1, 'lastMessage')).toBe('0x1234')
    expect(await read(t.l1, onL1, 'lastSource')).toBe(t.ids.c)
    expect(getAddress(await read(t.l1, onL1, 'lastSender'))).toBe(ewoq.address)
    expect(await read(t.l1, MESSENGER, 'messageReceived', messenger, [first.id])).toBe(true)
    const delivered = (await eventsIn(t.l1, 'ReceiveCrossChainMessage')).find((e) => e.args.messageID === first.id)!
    expect(getAddress(delivered.args.deliverer)).toBe(t.relayer.address)

    const back = await sendMessage(t.l1, t.ids.c, onC, '0xbeef')
    expect(back.message.receipts.length).toBe(1)
    expect(back.message.receipts[0].receivedMessageNonce).toBe(first.message.messageNonce)
    await until(async () => (await read(t.c, onC, 'received')) === 1n, 'the delivery on the C-Chain')
    const receipts = await eventsIn(t.c, 'ReceiptReceived')
    expect(receipts.map((e) => e.args.messageID)).toContain(first.id)
    expect(await t.c.call('icm_pendingMessages')).toEqual([])
  })

  it('a message whose execution fails is received all the same (MessageExecutionFailed), and retryMessageExecution runs it', async () => {
    await t.l1.send({ to: onL1, data: receiverAbi.encodeFunctionData('setFailing', [true]), gasLimit: 100_000n })
    const sent = await sendMessage(t.c, t.ids.l1, onL1, '0x0bad')
    await until(async () => (await read(t.l1, MESSENGER, 'messageReceived', messenger, [sent.id])) === true, 'the delivery')
    const failed = (await eventsIn(t.l1, 'MessageExecutionFailed')).find((e) => e.args.messageID === sent.id)!
    expect(failed).toBeDefined()
    const before = await read(t.l1, onL1, 'received')
    await t.l1.send({ to: onL1, data: receiverAbi.encodeFunctionData('setFailing', [false]), gasLimit: 100_000n })
    const retry = await t.l1.send({ to: MESSENGER, data: messenger.encodeFunctionData('retryMessageExecution', [t.ids.c, failed.args.message]), gasLimit: 1_000_000n })
    expect(retry.status).toBe('0x1')
    expect(await read(t.l1, onL1, 'received')).toBe(before + 1n)
    expect(await read(t.l1, onL1, 'lastMessage')).toBe('0x0bad')
  })

  it('leaves pending, with the reason, a message whose allowed relayers leave it out, and one to a chain the node does not serve', async () => {
    const other = Wallet.createRandom().address
    const notMine = await sendMessage(t.c, t.ids.l1, onL1, '0x01', { relayers: [other] })
    const elsewhere = await sendMessage(t.c, `0x${'ab'.repeat(32)}`, onL1, '0x02')
    await until(async () => (await t.c.call('icm_pendingMessages')).length === 2, 'both listed')
    const pending = await t.c.call('icm_pendingMessages')
    const byID = Object.fromEntries(pending.map((p: any) => [p.messageID, p]))
    expect(byID[notMine.id]).toMatchObject({
      status: 'failed',
      destinationBlockchainID: t.node.node.extraChains[0]!.spec.id,
      lastDelivery: { error: 'the relayer is not an allowed relayer of this message' },
    })
    expect(byID[notMine.id].sourceTransactionHash).toBe(notMine.receipt.transactionHash)
    expect(byID[elsewhere.id]).toMatchObject({ status: 'unknown destination', sourceBlockchainID: t.node.node.blockchainId })
    expect((await t.node.rpc('icm_deliverMessage', [elsewhere.id])).error?.message).toMatch(/is not a chain of this node$/)
    // A destination without the messenger: nothing is sent into the void.
    await t.l1.call('anvil_setCode', [MESSENGER, '0x'])
    try {
      const noMessenger = await sendMessage(t.c, t.ids.l1, onL1, '0x03')
      expect((await t.node.rpc('icm_deliverMessage', [noMessenger.id])).error?.message).toBe(`no messenger at ${MESSENGER.toLowerCase()} on the destination`)
    } finally {
      await t.l1.call('anvil_setCode', [MESSENGER, contracts.contracts.ICMTestMessenger.deployedBytecode])
    }
    expect((await t.node.rpc('icm_deliverMessage', [`0x${'00'.repeat(32)}`])).error?.message).toMatch(/was not sent on any chain of this node$/)
  })

  it('delivers with automine off on the destination: the delivery waits in its pool for the next block', async () => {
    await t.l1.call('evm_setAutomine', [false])
    try {
      const before = await read(t.l1, onL1, 'received')
      const sent = await sendMessage(t.c, t.ids.l1, onL1, '0x4444')
      await until(async () => (await t.l1.call('txpool_content')).pending[t.relayer.address] !== undefined, 'the delivery in the pool')
      expect(await read(t.l1, onL1, 'received')).toBe(before)
      await t.l1.call('evm_mine')
      expect(await read(t.l1, onL1, 'received')).toBe(before + 1n)
      expect(await read(t.l1, MESSENGER, 'messageReceived', messenger, [sent.id])).toBe(true)
    } finally {
      await t.l1.call('evm_setAutomine', [true])
    }
  })

  it('reverts on both chains take back a send and its delivery; a revert on the destination alone gets the message delivered again', async () => {
    const before = await read(t.l1, onL1, 'received')
    const snapshots = [await t.c.call('evm_snapshot'), await t.l1.call('evm_snapshot')]
    const sent = await sendMessage(t.c, t.ids.l1, onL1, '0x5555')
    await until(async () => (await read(t.l1, onL1, 'received')) === before + 1n, 'the delivery')
    expect(await t.c.call('evm_revert', [snapshots[0]])).toBe(true)
    expect(await t.l1.call('evm_revert', [snapshots[1]])).toBe(true)
    expect(await read(t.l1, onL1, 'received')).toBe(before)
    expect(await read(t.l1, MESSENGER, 'messageReceived', messenger, [sent.id])).toBe(false)
    expect((await t.c.call('icm_pendingMessages')).map((p: any) => p.messageID)).not.toContain(sent.id)

    const l1Snapshot = await t.l1.call('evm_snapshot')
    const again = await sendMessage(t.c, t.ids.l1, onL1, '0x6666')
    await until(async () => (await read(t.l1, onL1, 'received')) === before + 1n, 'the delivery')
    expect(await t.l1.call('evm_revert', [l1Snapshot])).toBe(true)
    await until(async () => (await read(t.l1, MESSENGER, 'messageReceived', messenger, [again.id])) === true, 'the delivery again')
    expect(await read(t.l1, onL1, 'received')).toBe(before + 1n)
  })
})

describe('the ICM relayer, manual', () => {
  it('lists what waits, delivers on icm_deliverMessage, once; a restart in auto mode delivers what waited', async () => {
    let t = await icmNode({ icmRelayer: 'manual' })
    const onL1 = await deployReceiver(t.l1)
    const sent = await sendMessage(t.c, t.ids.l1, onL1, '0x77')
    await t.c.call('evm_mine')
    expect(await read(t.l1, onL1, 'received')).toBe(0n)
    const [pending] = await t.c.call('icm_pendingMessages')
    expect(pending).toMatchObject({ messageID: sent.id, status: 'pending', messageNonce: '1', sourceBlockNumber: sent.receipt.blockNumber })
    const hash = await t.c.call('icm_deliverMessage', [sent.id])
    const receipt = await t.l1.call('eth_getTransactionReceipt', [hash])
    expect(receipt.status).toBe('0x1')
    expect(getAddress(receipt.from)).toBe(t.relayer.address)
    expect(await read(t.l1, onL1, 'received')).toBe(1n)
    expect(await t.c.call('icm_pendingMessages')).toEqual([])
    expect((await t.node.rpc('icm_deliverMessage', [sent.id])).error?.message).toBe('message already delivered')

    // A second message waits over a restart; in auto mode the node delivers it once back.
    const second = await sendMessage(t.c, t.ids.l1, onL1, '0x78')
    const dataDir = t.node.dataDir
    await t.node.stop()
    t = await icmNode({ icmRelayer: 'auto' }, dataDir)
    await until(async () => (await read(t.l1, onL1, 'received')) === 2n, 'the delivery after the restart')
    expect(await read(t.l1, MESSENGER, 'messageReceived', messenger, [second.id])).toBe(true)
    expect(await t.c.call('icm_pendingMessages')).toEqual([])
    await t.node.close()
  })
})

describe('the messenger from its keyless deployment (--icm-messenger-deployment-tx)', () => {
  it('is deployed on every chain at start by its own transaction, its deployer and the relayer funded by ewoq; once; the relayer then delivers', async () => {
    // A keyless deployment of the test messenger, made as Teleporter's is (no chain ID, nonce 0, r == s).
    const unsigned = Transaction.from({ type: 0, nonce: 0, gasPrice: 100n * 10n ** 9n, gasLimit: 3_000_000n, data: contracts.contracts.ICMTestMessenger.bytecode })
    const keyless = Transaction.from({ ...unsigned.toJSON(), signature: { r: `0x${'33'.repeat(32)}`, s: `0x${'33'.repeat(32)}`, v: 27 } })
    const address = getCreateAddress({ from: keyless.from!, nonce: 0 })
    const dir = tempDir()
    const file = join(dir, 'deployment.txt')
    writeFileSync(file, `${keyless.serialized.slice(2)}\n`)
    // TeleporterRegistry's creation code beside it, as avalanche-cli keeps it (here Ava Labs' build from @avalanche-sdk/client).
    const registry = await avalancheSdkArtifact('teleporterRegistry')
    writeFileSync(join(dir, 'TeleporterRegistry_Bytecode_v1.0.0.txt'), registry.bytecode)
    const config = { icmMessengerDeploymentTx: file, icmMessengerAddress: address }
    let t = await icmNode(config, dir, false)
    for (const chain of [t.c, t.l1]) {
      expect(await chain.call('eth_getCode', [address, 'latest'])).toBe(contracts.contracts.ICMTestMessenger.deployedBytecode)
      const receipt = await chain.call('eth_getTransactionReceipt', [keyless.hash])
      expect(receipt).toMatchObject({ status: '0x1', contractAddress: address.toLowerCase(), from: keyless.from!.toLowerCase() })
      expect(await chain.call('eth_getTransactionCount', [keyless.from, 'latest'])).toBe('0x1')
      expect(BigInt(await chain.call('eth_getBalance', [t.relayer.address, 'latest']))).toBeGreaterThan(0n)
      // The registry from ewoq's first transaction: avalanche-cli's local C-Chain address; version 1 is the messenger.
      const registryAbi = new Interface(registry.abi as never)
      const latest = await chain.call('eth_call', [{ to: REGISTRY, data: registryAbi.encodeFunctionData('getLatestTeleporter') }, 'latest'])
      expect(getAddress(registryAbi.decodeFunctionResult('getLatestTeleporter', latest)[0])).toBe(address)
    }
    expect(t.relayer.messenger).toBe(address)
    const blocks = await t.c.call('eth_blockNumber')
    await t.node.stop()
    t = await icmNode(config, dir, false)
    expect(await t.c.call('eth_blockNumber')).toBe(blocks)

    const onL1 = await deployReceiver(t.l1)
    const input = {
      destinationBlockchainID: t.ids.l1,
      destinationAddress: onL1,
      feeInfo: { feeTokenAddress: '0x' + '00'.repeat(20), amount: 0n },
      requiredGasLimit: 100_000n,
      allowedRelayerAddresses: [],
      message: '0x99',
    }
    await t.c.send({ to: address, data: messenger.encodeFunctionData('sendCrossChainMessage', [input]), gasLimit: 1_000_000n })
    await until(async () => (await read(t.l1, onL1, 'received')) === 1n, 'the delivery')
    await t.node.close()
  })

  it('refuses to start on a file that holds no keyless deployment', async () => {
    const dir = tempDir()
    const file = join(dir, 'deployment.txt')
    writeFileSync(file, (await ewoq.signTransaction({ type: 2, chainId: 43112n, nonce: 0, gasLimit: 21_000n, maxFeePerGas: 1n, to: ewoq.address })).slice(2))
    await expect(icmNode({ icmMessengerDeploymentTx: file }, dir, false)).rejects.toThrow(/icm-messenger-deployment-tx .*: not a keyless deployment/)
  })
})
