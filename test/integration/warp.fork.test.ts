import { getAddress } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cb58Decode, cb58Encode } from '../../src/avalanche/cb58.js'
import { packPredicate } from '../../src/warp/predicate.js'
import { send } from '../helpers/chain.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'
import { WARP, bytes, forwarderCode, hex, warp } from '../helpers/warp.js'

/*
 * Warp on a fork (docs/FORK.md): the fork is the C-Chain of the node it runs as (its blockchain ID,
 * its key), so a message sent on the fork is stored and signed there, is read back in a predicate on
 * the fork, and goes with an evm_revert or an anvil_reset; the origin never sees it.
 */
describe('Warp on a fork of this node', () => {
  let origin: TestNode
  let fork: TestNode

  beforeAll(async () => {
    origin = await startTestNode()
    await send(origin, { to: WARP, data: warp.encodeFunctionData('sendWarpMessage', ['0x01']), gasLimit: 200_000n })
    fork = await startTestNode({ chain: { 'fork-url': origin.url, 'warp-api-enabled': true } })
  })
  afterAll(async () => {
    await fork?.close()
    await origin?.close()
  })

  it('sends, stores, signs and reads a message on the fork; an evm_revert removes it', async () => {
    expect(await fork.call('eth_call', [{ to: WARP, data: warp.encodeFunctionData('getBlockchainID') }, 'latest'])).toBe(hex(cb58Decode(fork.node.blockchainId)))
    const snapshot = await fork.call('evm_snapshot', [])
    const { hash, receipt } = await send(fork, { to: WARP, data: warp.encodeFunctionData('sendWarpMessage', ['0xf0']), gasLimit: 200_000n })
    const id = cb58Encode(bytes(warp.parseLog(receipt.logs[0])!.args.messageID))
    const signed = bytes(await fork.call('warp_getMessageAggregateSignature', [id, 67, '']))

    const { receipt: deployed } = await send(fork, { data: forwarderCode('call', 'log'), gasLimit: 200_000n })
    const accessList = [{ address: WARP, storageKeys: packPredicate(signed).map(hex) }]
    const { receipt: read } = await send(fork, { to: getAddress(deployed.contractAddress), data: warp.encodeFunctionData('getVerifiedWarpMessage', [0]), gasLimit: 400_000n, accessList })
    const [msg, valid] = warp.decodeFunctionResult('getVerifiedWarpMessage', `0x${(read.logs[0].data as string).slice(66)}`)
    expect(valid).toBe(true)
    expect(msg.payload).toBe('0xf0')

    expect(await fork.call('evm_revert', [snapshot])).toBe(true)
    expect((await fork.rpc('warp_getMessage', [id])).error?.message).toMatch(/not found$/)
    expect(await origin.call('eth_getTransactionReceipt', [hash])).toBeNull()

    // anvil_reset back to the fork block removes what was sent since.
    const again = await send(fork, { to: WARP, data: warp.encodeFunctionData('sendWarpMessage', ['0xf1']), gasLimit: 200_000n })
    const id2 = cb58Encode(bytes(warp.parseLog(again.receipt.logs[0])!.args.messageID))
    expect(await fork.call('warp_getMessage', [id2])).toMatch(/^0x/)
    await fork.call('anvil_reset', [])
    expect((await fork.rpc('warp_getMessage', [id2])).error?.message).toMatch(/not found$/)
  })
})
