import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cb58Encode } from '../../src/avalanche/cb58.js'
import { verifyBls } from '../../src/warp/bls.js'
import { decodeSignedMessage, decodeUnsignedMessage, encodeUnsignedMessage } from '../../src/warp/message.js'
import { decodePayload } from '../../src/warp/payload.js'
import { canonicalValidators, verifyWarpMessage } from '../../src/warp/signature.js'
import { send } from '../helpers/chain.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'
import { WARP, bytes, warp } from '../helpers/warp.js'

/*
 * coreth's warp_ API (`warp-api-enabled`): a message sent through the precompile is stored when its
 * block is accepted and signed with the node's BLS key (on the local network avalanchego's first
 * local staker's); it survives a restart and is gone after a revert of its block.
 */

/** avalanchego genesis/genesis_local.json: the first local staker's BLS public key. */
const STAKER1_PUBLIC_KEY = '0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d'

/** Sends `payload` through the precompile; the message's ID (CB58) and unsigned bytes from the log. */
async function sendMessage(node: TestNode, payload: string): Promise<{ id: string; unsigned: Uint8Array; blockHash: string }> {
  const { receipt } = await send(node, { to: WARP, data: warp.encodeFunctionData('sendWarpMessage', [payload]), gasLimit: 200_000n })
  const log = warp.parseLog(receipt.logs[0])!
  return { id: cb58Encode(bytes(log.args.messageID)), unsigned: bytes(log.args.message), blockHash: receipt.blockHash }
}

describe('the warp_ API', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode({ chain: { 'warp-api-enabled': true } })
  })
  afterAll(() => node.close())

  it("is the local staker 1's key: info.getNodeID names its public key, node ID and proof of possession", async () => {
    const id = (await node.api('/ext/info', 'info.getNodeID')).result
    expect(id.nodePOP.publicKey).toBe(STAKER1_PUBLIC_KEY)
    expect(id.nodeID).toBe('NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg')
  })

  it('warp_getMessage answers the unsigned message; warp_getMessageSignature its BLS signature by the node', async () => {
    const m = await sendMessage(node, '0x010203')
    expect(await node.call('warp_getMessage', [m.id])).toBe(`0x${Buffer.from(m.unsigned).toString('hex')}`)
    const signature = bytes(await node.call('warp_getMessageSignature', [m.id]))
    expect(signature).toHaveLength(96)
    expect(verifyBls(bytes(STAKER1_PUBLIC_KEY), signature, m.unsigned)).toBe(true)
    expect(decodePayload(decodeUnsignedMessage(m.unsigned).payload)).toMatchObject({ kind: 'addressedCall', payload: Uint8Array.of(1, 2, 3) })
  })

  it("warp_getMessageAggregateSignature: the signed message verifies against the node's one-validator set at quorum 67", async () => {
    const m = await sendMessage(node, '0xaa')
    const signed = decodeSignedMessage(bytes(await node.call('warp_getMessageAggregateSignature', [m.id, 67, ''])))
    expect(encodeUnsignedMessage(signed.unsigned)).toEqual(m.unsigned)
    expect(signed.signature.signers).toEqual(Uint8Array.of(1))
    const set = canonicalValidators([{ publicKey: bytes(STAKER1_PUBLIC_KEY), weight: 2_000_000_000_000_000n }])
    expect(() => verifyWarpMessage(signed, signed.unsigned.networkID, set, 67n, 100n)).not.toThrow()
    expect((await node.rpc('warp_getMessageAggregateSignature', [m.id, 67, cb58Encode(new Uint8Array(32).fill(9))])).error?.message).toBe('cannot aggregate signatures from subnet with no validators')
  })

  it('signs an accepted block: warp_getBlockSignature and warp_getBlockAggregateSignature over a Hash payload', async () => {
    const head = await node.call('eth_getBlockByNumber', ['latest', false])
    const blockID = cb58Encode(bytes(head.hash))
    const signature = bytes(await node.call('warp_getBlockSignature', [blockID]))
    const signed = decodeSignedMessage(bytes(await node.call('warp_getBlockAggregateSignature', [blockID, 67, ''])))
    expect(decodePayload(signed.unsigned.payload)).toEqual({ kind: 'hash', hash: bytes(head.hash) })
    expect(verifyBls(bytes(STAKER1_PUBLIC_KEY), signature, encodeUnsignedMessage(signed.unsigned))).toBe(true)
    const unknown = cb58Encode(new Uint8Array(32).fill(7))
    expect((await node.rpc('warp_getBlockSignature', [unknown])).error?.message).toMatch(/^failed to get signature for block /)
  })

  it("the P-Chain's view agrees: validatedBy names the chain's subnet, getValidatorsAt the node with its BLS key, and the aggregate signs for that subnet", async () => {
    const chainID = process.env.CCHAIN_TEST_CHAIN === 'extra' ? node.node.extraChains[0]!.spec.id : node.node.blockchainId
    const { subnetID } = (await node.api('/ext/bc/P', 'platform.validatedBy', { blockchainID: chainID })).result
    if (process.env.CCHAIN_TEST_CHAIN === 'extra') expect(subnetID).not.toBe('11111111111111111111111111111111LpoYY')
    else expect(subnetID).toBe('11111111111111111111111111111111LpoYY')
    expect((await node.api('/ext/bc/P', 'platform.validates', { subnetID })).result.blockchainIDs).toContain(chainID)
    const validators = (await node.api('/ext/bc/P', 'platform.getValidatorsAt', { height: 0, subnetID })).result
    expect(validators).toEqual({ 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg': { publicKey: STAKER1_PUBLIC_KEY, weight: '2000000000000000' } })
    const m = await sendMessage(node, '0xdd')
    const signed = decodeSignedMessage(bytes(await node.call('warp_getMessageAggregateSignature', [m.id, 67, subnetID])))
    expect(encodeUnsignedMessage(signed.unsigned)).toEqual(m.unsigned)
    expect((await node.api('/ext/bc/P', 'platform.validatedBy', { blockchainID: cb58Encode(new Uint8Array(32).fill(3)) })).error?.message).toMatch(/^problem retrieving blockchain ".*": not found$/)
  })

  it('platform.getCurrentValidators and getSubnet(s) show the same validator: node ID, weight, BLS key and proof of possession', async () => {
    const P = '/ext/bc/P'
    const { nodeID, nodePOP } = (await node.api('/ext/info', 'info.getNodeID')).result
    const [primary] = (await node.api(P, 'platform.getCurrentValidators', {})).result.validators
    expect(primary).toMatchObject({
      txID: '11111111111111111111111111111111LpoYY',
      nodeID,
      weight: '2000000000000000',
      signer: nodePOP,
      delegationFee: '100.0000',
      connected: true,
      delegatorCount: '0',
      delegatorWeight: '0',
      validationRewardOwner: { locktime: '0', threshold: '1', addresses: ['P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'] },
    })
    // Staking runs a year from avalanchego's local start time, moved forward in 9-month steps to the last before now.
    const start = BigInt(primary.startTime)
    const now = BigInt(Math.floor(Date.now() / 1000))
    expect((start - 1_721_016_000n) % 23_328_000n).toBe(0n)
    expect(start <= now && now < start + 23_328_000n).toBe(true)
    expect(BigInt(primary.endTime) - start).toBe(31_536_000n)
    expect(primary).not.toHaveProperty('delegators')
    // Asked by node ID: the same entry with its (empty) delegators; another node ID: none.
    expect((await node.api(P, 'platform.getCurrentValidators', { nodeIDs: [nodeID] })).result.validators).toEqual([{ ...primary, delegators: [] }])
    const other = 'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ'
    expect((await node.api(P, 'platform.getCurrentValidators', { nodeIDs: [other] })).result.validators).toEqual([])
    expect((await node.api(P, 'platform.getCurrentValidators', { nodeIDs: ['7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg'] })).error?.message).toMatch(/^couldn't unmarshal an argument/)

    // The chain's subnet: the Primary Network for the C-Chain, a permissioned subnet with the node alone for an extra chain.
    const chainID = process.env.CCHAIN_TEST_CHAIN === 'extra' ? node.node.extraChains[0]!.spec.id : node.node.blockchainId
    const { subnetID } = (await node.api(P, 'platform.validatedBy', { blockchainID: chainID })).result
    const subnets = (await node.api(P, 'platform.getSubnets', {})).result.subnets
    expect(subnets.at(-1)).toEqual({ id: '11111111111111111111111111111111LpoYY', controlKeys: [], threshold: '0' })
    expect(subnets.map((s: { id: string }) => s.id)).toContain(subnetID)
    expect((await node.api(P, 'platform.getSubnet', { subnetID: '11111111111111111111111111111111LpoYY' })).error?.message).toBe("the primary network isn't a subnet")
    expect((await node.api(P, 'platform.getSubnet', { subnetID: cb58Encode(new Uint8Array(32).fill(9)) })).error?.message).toBe('not found')
    expect((await node.api(P, 'platform.getSubnets', { ids: [cb58Encode(new Uint8Array(32).fill(9))] })).result).toEqual({ subnets: null })
    if (process.env.CCHAIN_TEST_CHAIN !== 'extra') return
    const [validator] = (await node.api(P, 'platform.getCurrentValidators', { subnetID })).result.validators
    expect(validator).toEqual({ txID: primary.txID, startTime: primary.startTime, endTime: primary.endTime, weight: primary.weight, nodeID })
    expect((await node.api(P, 'platform.getSubnet', { subnetID })).result).toEqual({
      isPermissioned: true,
      controlKeys: [],
      threshold: '0',
      locktime: '0',
      subnetTransformationTxID: '11111111111111111111111111111111LpoYY',
      conversionID: '11111111111111111111111111111111LpoYY',
      managerChainID: '11111111111111111111111111111111LpoYY',
      managerAddress: null,
    })
  })

  it("answers coreth's error for an unknown message, and an ID that is no CB58 ID is an invalid argument", async () => {
    const unknown = cb58Encode(new Uint8Array(32).fill(5))
    const answer = await node.rpc('warp_getMessage', [unknown])
    expect(answer.error?.message).toBe(`failed to get message ${unknown} with error failed to get warp message ${unknown} from db: not found`)
    expect((await node.rpc('warp_getMessage', ['not-an-id'])).error?.code).toBe(-32602)
  })

  it('an evm_revert that removes the block removes its message', async () => {
    const snapshot = await node.call('evm_snapshot', [])
    const m = await sendMessage(node, '0xbb')
    expect(await node.call('warp_getMessage', [m.id])).toMatch(/^0x/)
    expect(await node.call('evm_revert', [snapshot])).toBe(true)
    expect((await node.rpc('warp_getMessage', [m.id])).error?.message).toMatch(/not found$/)
  })

  it('keeps every stored message over a restart', async () => {
    const m = await sendMessage(node, '0xcc')
    await node.stop()
    const again = await startTestNode({ dataDir: node.dataDir, chain: { 'warp-api-enabled': true } })
    try {
      expect(await again.call('warp_getMessage', [m.id])).toBe(`0x${Buffer.from(m.unsigned).toString('hex')}`)
    } finally {
      await again.stop()
    }
    node = await startTestNode({ dataDir: node.dataDir, chain: { 'warp-api-enabled': true } })
  })
})

describe('the warp_ API, off by default', () => {
  it('is not served without warp-api-enabled', async () => {
    const node = await startTestNode()
    try {
      expect((await node.rpc('warp_getMessage', [cb58Encode(new Uint8Array(32))])).error?.code).toBe(-32601)
    } finally {
      await node.close()
    }
  })
})
