import { Wallet, getAddress } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cb58Decode, cb58Encode } from '../../src/avalanche/cb58.js'
import { decodeSignedMessage, encodeSignedMessage } from '../../src/warp/message.js'
import { packPredicate } from '../../src/warp/predicate.js'
import { encodePredicateResults } from '../../src/warp/predicateResults.js'
import { EWOQ_KEY, startTestNode, type TestNode } from '../helpers/testNode.js'
import { WARP, bytes, chainAt, forwarderCode, hex, warp } from '../helpers/warp.js'

/*
 * A Warp message from the C-Chain read on the chain under test (the C-Chain itself, or an extra
 * chain in the extra-chain project): the signed message travels as a predicate in the receiving
 * transaction's access list, is verified before the transaction runs, and getVerifiedWarpMessage
 * answers it (valid), or answers valid = false for a corrupted signature while the transaction
 * is still mined and the header's predicate results carry the failure, as coreth does.
 */

const ewoq = new Wallet(EWOQ_KEY)
/** Logs what the precompile answered (forwarderCode), so a mined transaction shows it. */
const READER = forwarderCode('call', 'log')

describe('Warp predicates: a message from the C-Chain verified and read in a transaction', () => {
  let node: TestNode
  let source: ReturnType<typeof chainAt>
  let target: ReturnType<typeof chainAt>
  let reader: string
  let signed: Uint8Array
  let sourceChainID: Uint8Array

  beforeAll(async () => {
    node = await startTestNode({ chain: { 'warp-api-enabled': true }, config: { chain: { 'warp-api-enabled': true } } as never })
    source = chainAt(`http://127.0.0.1:${node.port}/ext/bc/C/rpc`)
    target = chainAt(node.url)
    const sent = await source.send({ to: WARP, data: warp.encodeFunctionData('sendWarpMessage', ['0xc0ffee']), gasLimit: 200_000n })
    const log = warp.parseLog(sent.logs[0])!
    signed = bytes(await source.call('warp_getMessageAggregateSignature', [cb58Encode(bytes(log.args.messageID)), 67, '']))
    sourceChainID = cb58Decode(node.node.blockchainId)
    reader = getAddress((await target.send({ data: READER, gasLimit: 200_000n })).contractAddress)
  })
  afterAll(() => node.close())

  /** Sends getVerifiedWarpMessage(0) through the reader with `message` as the predicate; the receipt, what the precompile answered, the block. */
  const read = async (message: Uint8Array) => {
    const accessList = [{ address: WARP, storageKeys: packPredicate(message).map(hex) }]
    const receipt = await target.send({ to: reader, data: warp.encodeFunctionData('getVerifiedWarpMessage', [0]), gasLimit: 400_000n, accessList })
    const data = receipt.logs[0].data as string
    expect(BigInt(data.slice(0, 66))).toBe(1n)
    const [msg, valid] = warp.decodeFunctionResult('getVerifiedWarpMessage', `0x${data.slice(66)}`)
    const block = await target.call('eth_getBlockByNumber', [receipt.blockNumber, false])
    return { receipt, msg, valid, block }
  }

  it('answers the message, valid, and the header records the transaction with an empty results bitset', async () => {
    const { receipt, msg, valid, block } = await read(signed)
    expect(receipt.status).toBe('0x1')
    expect(valid).toBe(true)
    expect(msg.sourceChainID).toBe(hex(sourceChainID))
    expect(getAddress(msg.originSenderAddress)).toBe(getAddress(ewoq.address))
    expect(msg.payload).toBe('0xc0ffee')
    const results = encodePredicateResults(new Map([[receipt.transactionHash, new Map([[WARP.slice(2), new Uint8Array(0)]])]]))
    expect(block.extraData).toBe(hex(results))
  })

  it('debug_traceTransaction replays the transaction with its predicate: the gas of its receipt, the message read as verified', async () => {
    const { receipt } = await read(signed)
    const trace = await target.call('debug_traceTransaction', [receipt.transactionHash, { tracer: 'callTracer' }])
    expect(BigInt(trace.gasUsed)).toBe(BigInt(receipt.gasUsed))
    const inner = trace.calls[0]
    expect(getAddress(inner.to)).toBe(getAddress(WARP))
    expect(warp.decodeFunctionResult('getVerifiedWarpMessage', inner.output)[1]).toBe(true)
  })

  it("a block-hash message the same way: warp_getBlockAggregateSignature's message read by getVerifiedWarpBlockHash, valid", async () => {
    const head = await source.call('eth_getBlockByNumber', ['latest', false])
    const blockSigned = bytes(await source.call('warp_getBlockAggregateSignature', [cb58Encode(bytes(head.hash)), 67, '']))
    const accessList = [{ address: WARP, storageKeys: packPredicate(blockSigned).map(hex) }]
    const receipt = await target.send({ to: reader, data: warp.encodeFunctionData('getVerifiedWarpBlockHash', [0]), gasLimit: 400_000n, accessList })
    expect(receipt.status).toBe('0x1')
    const [answer, valid] = warp.decodeFunctionResult('getVerifiedWarpBlockHash', `0x${(receipt.logs[0].data as string).slice(66)}`)
    expect(valid).toBe(true)
    expect(answer.sourceChainID).toBe(hex(sourceChainID))
    expect(answer.blockHash).toBe(head.hash)
  })

  it('with a corrupted signature: valid = false, the transaction still mined, bit 0 set in the header', async () => {
    const message = decodeSignedMessage(signed)
    const other = new Uint8Array(message.signature.signature)
    // Another valid G2 point: the signature of a different message, so it parses and fails verification.
    const wrong = bytes(
      await source.call('warp_getMessageSignature', [
        cb58Encode(bytes(warp.parseLog((await source.send({ to: WARP, data: warp.encodeFunctionData('sendWarpMessage', ['0x01']), gasLimit: 200_000n })).logs[0])!.args.messageID)),
      ]),
    )
    expect(wrong).not.toEqual(other)
    const corrupted = encodeSignedMessage({ unsigned: message.unsigned, signature: { signers: message.signature.signers, signature: wrong } })
    const { receipt, msg, valid, block } = await read(corrupted)
    expect(receipt.status).toBe('0x1')
    expect(valid).toBe(false)
    expect(msg.payload).toBe('0x')
    const results = encodePredicateResults(new Map([[receipt.transactionHash, new Map([[WARP.slice(2), Uint8Array.of(1)]])]]))
    expect(block.extraData).toBe(hex(results))
  })

  it('prices the predicate in place of its access-list tuple: 125,000 + 512 per chunk + 250 per signer', async () => {
    const storageKeys = packPredicate(signed).map(hex)
    const to = ewoq.address
    // Limits under twice the gas each uses: Helicon's minimum charge (half the limit) stays below it.
    const plain = await target.send({ to, data: '0x', gasLimit: 30_000n })
    const withPredicate = await target.send({ to, data: '0x', gasLimit: 250_000n, accessList: [{ address: WARP, storageKeys }] })
    // The same keys under another address cost EIP-2930's 2,400 + 1,900 per key.
    const withTuple = await target.send({ to, data: '0x', gasLimit: 60_000n, accessList: [{ address: `0x${'11'.repeat(20)}`, storageKeys }] })
    const chunks = BigInt(storageKeys.length)
    expect(BigInt(withPredicate.gasUsed) - BigInt(plain.gasUsed)).toBe(125_000n + 512n * chunks + 250n)
    expect(BigInt(withTuple.gasUsed) - BigInt(plain.gasUsed)).toBe(2_400n + 1_900n * chunks)
  })

  it("eth_call and eth_estimateGas carry the predicate as coreth's calls do: priced, read as verified; the estimate suffices for the transaction", async () => {
    const accessList = [{ address: WARP, storageKeys: packPredicate(signed).map(hex) }]
    const data = warp.encodeFunctionData('getVerifiedWarpMessage', [0])
    const answer = await target.call('eth_call', [{ from: ewoq.address, to: WARP, data, accessList }, 'latest'])
    const [msg, valid] = warp.decodeFunctionResult('getVerifiedWarpMessage', answer)
    expect(valid).toBe(true)
    expect(msg.payload).toBe('0xc0ffee')
    const estimate = BigInt(await target.call('eth_estimateGas', [{ from: ewoq.address, to: reader, data, accessList }]))
    expect(estimate).toBeGreaterThan(125_000n)
    const receipt = await target.send({ to: reader, data, gasLimit: estimate, accessList })
    expect(receipt.status).toBe('0x1')
    await expect(target.call('eth_call', [{ from: ewoq.address, to: WARP, data, accessList: [{ address: WARP, storageKeys: [hex(new Uint8Array(32))] }] }, 'latest'])).rejects.toThrow(
      /cannot unpack predicate bytes: no delimiter found: length \(1\)/,
    )
  })

  it('eth_simulateV1 runs a call with its predicate as eth_call does', async () => {
    const accessList = [{ address: WARP, storageKeys: packPredicate(signed).map(hex) }]
    const data = warp.encodeFunctionData('getVerifiedWarpMessage', [0])
    const [block] = await target.call('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: ewoq.address, to: WARP, data, accessList }] }] }, 'latest'])
    const [msg, valid] = warp.decodeFunctionResult('getVerifiedWarpMessage', block.calls[0].returnData)
    expect(valid).toBe(true)
    expect(msg.payload).toBe('0xc0ffee')
  })

  it('refuses a transaction whose predicate does not parse, as coreth: its intrinsic gas cannot be computed', async () => {
    const accessList = [{ address: WARP, storageKeys: [hex(new Uint8Array(32))] }]
    await expect(target.send({ to: reader, data: '0x', gasLimit: 400_000n, accessList })).rejects.toThrow(/cannot unpack predicate bytes: no delimiter found: length \(1\)/)
  })
})
