import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cb58Decode, cb58Encode } from '../../src/avalanche/cb58.js'
import { decodeSignedMessage, encodeUnsignedMessage } from '../../src/warp/message.js'
import { encodeHashPayload } from '../../src/warp/payload.js'
import { canonicalValidators, verifyWarpMessage } from '../../src/warp/signature.js'
import { send } from '../helpers/chain.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'
import { WARP, bytes, hex, warp } from '../helpers/warp.js'

/*
 * icm-services' signature-aggregator API, `POST /aggregate-signatures`, served by the node for its
 * chains (the chain under test: the C-Chain, or an extra chain in the extra-chain project): the
 * signed message for a message the chain's accepted blocks sent or an accepted block's hash,
 * the aggregator's statuses and error texts otherwise.
 */
describe('POST /aggregate-signatures', () => {
  let node: TestNode
  let chainID: Uint8Array
  let unsigned: Uint8Array
  let blockHash: string
  let pk: Uint8Array
  const post = async (body: unknown, raw?: string) => {
    const res = await fetch(`http://127.0.0.1:${node.port}/aggregate-signatures`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw ?? JSON.stringify(body) })
    return { status: res.status, body: (await res.json()) as { 'signed-message'?: string; error?: string } }
  }
  const verify = (signedHex: string, quorum = 67n) => {
    const signed = decodeSignedMessage(bytes(`0x${signedHex}`))
    verifyWarpMessage(signed, 12345, canonicalValidators([{ publicKey: pk, weight: 1n }]), quorum, 100n)
    return signed
  }

  beforeAll(async () => {
    node = await startTestNode()
    pk = bytes((await node.api('/ext/info', 'info.getNodeID')).result.nodePOP.publicKey)
    chainID = cb58Decode(process.env.CCHAIN_TEST_CHAIN === 'extra' ? node.node.extraChains[0]!.spec.id : node.node.blockchainId)
    const { receipt } = await send(node, { to: WARP, data: warp.encodeFunctionData('sendWarpMessage', ['0xabcd']), gasLimit: 200_000n })
    unsigned = bytes(warp.parseLog(receipt.logs[0])!.args.message)
    blockHash = receipt.blockHash
  })
  afterAll(() => node.close())

  it('signs a message the chain sent: the signed message (hex, no 0x) verifies under the node alone, with or without 0x in, at any quorum', async () => {
    const answer = await post({ message: hex(unsigned), 'quorum-percentage': 67 })
    expect(answer.status).toBe(200)
    expect(answer.body['signed-message']).toMatch(/^[0-9a-f]+$/)
    const signed = verify(answer.body['signed-message']!)
    expect(encodeUnsignedMessage(signed.unsigned)).toEqual(unsigned)
    expect(signed.signature.signers).toEqual(Uint8Array.of(1))
    expect((await post({ message: hex(unsigned).slice(2) })).status).toBe(200)
    expect(verify((await post({ message: hex(unsigned), 'quorum-percentage': 100 })).body['signed-message']!, 100n)).toBeDefined()
  })

  it("takes the signing subnet in CB58 or hex, and the chain's own by default; a subnet the node does not validate gets no signatures", async () => {
    const { subnetID } = (await node.api('/ext/bc/P', 'platform.validatedBy', { blockchainID: cb58Encode(chainID) })).result
    expect((await post({ message: hex(unsigned), 'signing-subnet-id': subnetID })).status).toBe(200)
    expect((await post({ message: hex(unsigned), 'signing-subnet-id': hex(cb58Decode(subnetID)) })).status).toBe(200)
    expect(await post({ message: hex(unsigned), 'signing-subnet-id': cb58Encode(new Uint8Array(32).fill(4)) })).toEqual({ status: 500, body: { error: 'failed to collect a threshold of signatures' } })
  })

  it("signs an accepted block's hash message; not a block the chain does not have", async () => {
    const hashMessage = (hash: string) => hex(encodeUnsignedMessage({ networkID: 12345, sourceChainID: chainID, payload: encodeHashPayload(bytes(hash)) }))
    const answer = await post({ message: hashMessage(blockHash) })
    expect(answer.status).toBe(200)
    verify(answer.body['signed-message']!)
    expect(await post({ message: hashMessage(`0x${'77'.repeat(32)}`) })).toEqual({ status: 500, body: { error: 'failed to collect a threshold of signatures' } })
  })

  it("answers the aggregator's errors: unknown message, unknown chain, bad body, bad hex, bad message, bad quorum, bad subnet", async () => {
    const forged = Uint8Array.from(unsigned)
    forged[forged.length - 1] ^= 1
    expect(await post({ message: hex(forged) })).toEqual({ status: 500, body: { error: 'failed to collect a threshold of signatures' } })
    const elsewhere = encodeUnsignedMessage({ networkID: 12345, sourceChainID: new Uint8Array(32).fill(8), payload: encodeHashPayload(bytes(blockHash)) })
    expect(await post({ message: hex(elsewhere) })).toEqual({ status: 500, body: { error: 'failed to aggregate signatures' } })
    expect(await post(undefined, 'not json')).toEqual({ status: 400, body: { error: 'Could not decode request body' } })
    expect(await post({ message: 7 })).toEqual({ status: 400, body: { error: 'Could not decode request body' } })
    expect(await post({ message: '0xzz' })).toEqual({ status: 400, body: { error: 'Could not decode message' } })
    expect(await post({ message: '0x0102' })).toEqual({ status: 400, body: { error: 'Error unpacking warp message' } })
    expect(await post({ message: hex(unsigned), 'quorum-percentage': 101 })).toEqual({ status: 400, body: { error: 'Invalid quorum number' } })
    expect(await post({ message: hex(unsigned), 'signing-subnet-id': 'nope' })).toEqual({ status: 400, body: { error: 'Error parsing signing subnet ID' } })
  })
})
