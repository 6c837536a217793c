import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { TransferableOutput, addTxSignatures, avm, evm, pvm, utils, type Utxo } from '@avalabs/avalanchejs'
import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Anvil, startAnvil } from '../helpers/anvil.js'
import { EWOQ as ewoqShort, EWOQ_KEY as ewoqKey, addrOf, cb58, context, importIntoC, keyN, sha256, waitAtomicAccepted } from '../helpers/avalanchejs.js'
import { poll, sign } from '../helpers/chain.js'
import { AVAX, EMPTY_ID, EWOQ_ADDRESS, EWOQ_C, EWOQ_P, EWOQ_X, LOCAL_C, LOCAL_X, NANO } from '../helpers/constants.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { type TestNode, startTestNode } from '../helpers/testNode.js'

const tempDir = tempDirs('cchain-fork-atomic-')

/** The C-Chain bech32 address of key `n`'s short address. */
const cAddressOf = (key: Uint8Array): string => utils.format('C', 'local', addrOf(key))
const api = (node: TestNode) => ({ x: new avm.AVMApi(`http://127.0.0.1:${node.port}`), p: new pvm.PVMApi(`http://127.0.0.1:${node.port}`), c: new evm.EVMApi(`http://127.0.0.1:${node.port}`) })
/** `address`'s EVM balance on `node`, read at each call. */
const cBalance = (node: TestNode, address: string) => async () => BigInt(await node.call('eth_getBalance', [address, 'latest']))
const utxoID = (u: Utxo): string => u.utxoId.txID.toString()
/** The IDs of the export txs whose UTXOs `node`'s C-Chain lists for `address` from `sourceChain`, as AvalancheJS reads them. */
const listed = async (node: TestNode, address: string, sourceChain: 'X' | 'P' = 'X'): Promise<string[]> => (await api(node).c.getUTXOs({ addresses: [address], sourceChain })).utxos.map(utxoID)
const rawUTXOs = async (node: TestNode, address: string, sourceChain: 'X' | 'P' = 'X') =>
  (await node.api('/ext/bc/C/avax', 'avax.getUTXOs', { addresses: [address], sourceChain, encoding: 'hex' })).result

/** An X -> C export on `node` of `amount` nAVAX to `owner`'s short address; its tx ID. */
async function exportFromX(node: TestNode, owner: Uint8Array, amount: bigint): Promise<string> {
  const { x } = api(node)
  const utxos: Utxo[] = (await x.getUTXOs({ addresses: [EWOQ_X] })).utxos
  const unsignedTx = avm.newExportTx(context, LOCAL_C, [ewoqShort], utxos, [TransferableOutput.fromNative(AVAX, amount, [owner])])
  await addTxSignatures({ unsignedTx, privateKeys: [ewoqKey] })
  const { txID } = await x.issueSignedTx(unsignedTx.getSignedTx())
  expect((await node.api('/ext/bc/X', 'avm.getTxStatus', { txID })).result.status).toBe('Accepted')
  return txID
}

/**
 * The atomic side of a fork (issue 16): node A's X-Chain exports to its C-Chain; B forks A's C-Chain.
 * B's avax.getUTXOs lists what waits in A's shared memory (as of B's first query for the address),
 * an import on B consumes it on B only, and a fork of a plain EVM origin (anvil, a server without the avax path) lists nothing.
 */
describe('fork: the atomic UTXOs of the origin', () => {
  let a: TestNode
  let aStopped = false
  let b: TestNode
  let forkDir: string
  const exportOnA = (owner: Uint8Array, amount: bigint): Promise<string> => exportFromX(a, owner, amount)

  beforeAll(async () => {
    a = await startTestNode()
    // A block on A's C-Chain, so the fork block is not the genesis.
    const hash = await a.call('eth_sendRawTransaction', [await sign({ to: Wallet.createRandom().address, value: 1n, nonce: 0 })])
    await poll(() => a.call('eth_getTransactionReceipt', [hash]), 'the transfer on A')
    forkDir = tempDir()
    b = await startTestNode({ dataDir: forkDir, chain: { 'fork-url': a.url } })
  })

  afterAll(async () => {
    await b?.stop()
    if (!aStopped) await a?.close()
    tempDir.removeAll()
  })

  it("lists the UTXOs A's X-Chain exported to A's C-Chain, as A lists them", async () => {
    const exportID = await exportOnA(ewoqShort, 2_000_000_000n)
    const fromA = await rawUTXOs(a, EWOQ_C)
    expect(fromA.numFetched).toBe('1')
    const fromB = await rawUTXOs(b, EWOQ_C)
    expect(fromB.utxos).toEqual(fromA.utxos)
    expect(await listed(b, EWOQ_C)).toEqual([exportID])
  })

  it('an import on B (AvalancheJS) credits the C address on B only; the UTXO is spent on B and still waits on A', async () => {
    const [exportID] = await listed(b, EWOQ_C)
    const balanceOnA = await cBalance(a, EWOQ_ADDRESS)()
    const { signed, credit } = await importIntoC(api(b).c, context, 'X', exportID!, cBalance(b, EWOQ_ADDRESS))
    expect(credit).toBeGreaterThan((2_000_000_000n - 1_000_000n) * NANO)
    expect(credit).toBeLessThan(2_000_000_000n * NANO)
    // Consumed on B for good: not listed, not importable again (B never fetches that address again).
    expect(await listed(b, EWOQ_C)).toEqual([])
    await expect(api(b).c.issueSignedTx(signed)).rejects.toThrow(`failed to fetch import UTXOs from ${LOCAL_X} due to: not found`)
    // A is untouched: the UTXO still waits in its shared memory, its balance is the same.
    expect(await listed(a, EWOQ_C)).toEqual([exportID])
    expect(await cBalance(a, EWOQ_ADDRESS)()).toBe(balanceOnA)
  })

  it("from A's P-Chain as well: listed on B from P and imported there; A still lists it", async () => {
    const { p } = api(a)
    const feeState = await p.getFeeState()
    const { utxos } = await p.getUTXOs({ addresses: [EWOQ_P] })
    const outputs = [TransferableOutput.fromNative(AVAX, 3_000_000_000n, [ewoqShort])]
    const unsignedTx = pvm.e.newExportTx({ feeState, fromAddressesBytes: [ewoqShort], destinationChainId: LOCAL_C, outputs, utxos }, context)
    await addTxSignatures({ unsignedTx, privateKeys: [ewoqKey] })
    const { txID: exportID } = await p.issueSignedTx(unsignedTx.getSignedTx())
    expect(await p.getTxStatus({ txID: exportID })).toEqual({ status: 'Committed' })
    expect(await listed(b, EWOQ_C, 'P')).toEqual([exportID])
    const { credit } = await importIntoC(api(b).c, context, 'P', exportID, cBalance(b, EWOQ_ADDRESS))
    expect(credit).toBeGreaterThan((3_000_000_000n - 1_000_000n) * NANO)
    expect(await listed(b, EWOQ_C, 'P')).toEqual([])
    expect(await listed(a, EWOQ_C, 'P')).toEqual([exportID])
  })

  it("the origin's UTXOs as of the fork's first query for an address: a later export on A is not listed on B", async () => {
    const later = await exportOnA(ewoqShort, 1_000_000_000n)
    expect(await listed(a, EWOQ_C)).toContain(later)
    expect(await listed(b, EWOQ_C)).toEqual([])
    // An address B never asked about: its UTXOs are fetched at its first query, later exports included.
    const alice = keyN(1)
    const toAlice = await exportOnA(addrOf(alice), 1_500_000_000n)
    expect(await listed(b, cAddressOf(alice))).toEqual([toAlice])
  })

  it("an import built against A's listing, issued on B without a query there first, is fetched for its signer and accepted", async () => {
    const bob = keyN(2)
    const bobEth = Wallet.createRandom().address
    const exportID = await exportOnA(addrOf(bob), 1_200_000_000n)
    const utxos = (await api(a).c.getUTXOs({ addresses: [cAddressOf(bob)], sourceChain: 'X' })).utxos
    expect(utxos.map(utxoID)).toEqual([exportID])
    const baseFee = ((await api(b).c.getBaseFee()) + NANO - 1n) / NANO
    const importTx = evm.newImportTxFromBaseFee(context, utils.hexToBuffer(bobEth), [addrOf(bob)], utxos, LOCAL_X, baseFee)
    await addTxSignatures({ unsignedTx: importTx, privateKeys: [bob] })
    const { txID } = await api(b).c.issueSignedTx(importTx.getSignedTx())
    expect(txID).toBe(cb58(sha256(importTx.getSignedTx().toBytes())))
    await waitAtomicAccepted(api(b).c, txID)
    expect(await cBalance(b, bobEth)()).toBeGreaterThan(0n)
    expect(await cBalance(a, bobEth)()).toBe(0n)
    expect(await listed(b, cAddressOf(bob))).toEqual([])
    expect(await listed(a, cAddressOf(bob))).toEqual([exportID])
  })

  it('evm_revert to a snapshot taken before the first query forgets the fetch with the import: the UTXO is fetched and importable again', async () => {
    const carol = keyN(4)
    const exportID = await exportOnA(addrOf(carol), 1_100_000_000n)
    const snapshot = await b.call('evm_snapshot')
    expect(await listed(b, cAddressOf(carol))).toEqual([exportID])
    const baseFee = ((await api(b).c.getBaseFee()) + NANO - 1n) / NANO
    const utxos = (await api(b).c.getUTXOs({ addresses: [cAddressOf(carol)], sourceChain: 'X' })).utxos
    const importTx = evm.newImportTxFromBaseFee(context, utils.hexToBuffer(Wallet.createRandom().address), [addrOf(carol)], utxos, LOCAL_X, baseFee)
    await addTxSignatures({ unsignedTx: importTx, privateKeys: [carol] })
    await waitAtomicAccepted(api(b).c, (await api(b).c.issueSignedTx(importTx.getSignedTx())).txID)
    expect(await listed(b, cAddressOf(carol))).toEqual([])
    expect(await b.call('evm_revert', [snapshot])).toBe(true)
    expect(await listed(b, cAddressOf(carol))).toEqual([exportID])
  })

  it("anvil_reset goes back to the fork block: the imports on B are gone, and A's unspent UTXOs are fetched again as they are now", async () => {
    const fromA = await listed(a, EWOQ_C)
    expect(fromA).toHaveLength(2)
    expect(await listed(b, EWOQ_C)).toEqual([])
    expect(await b.call('anvil_reset')).toBeNull()
    expect((await listed(b, EWOQ_C)).sort()).toEqual([...fromA].sort())
  })

  it('after a restart with the origin gone: what B fetched is kept, an address never asked about fails naming the origin', async () => {
    const aliceListed = await listed(b, cAddressOf(keyN(1)))
    const ewoqListed = await listed(b, EWOQ_C)
    expect(aliceListed).toHaveLength(1)
    const originName = new URL(a.url).origin
    await b.stop()
    await a.close()
    aStopped = true
    b = await startTestNode({ dataDir: forkDir, chain: { 'fork-url': a.url } })
    expect(await listed(b, cAddressOf(keyN(1)))).toEqual(aliceListed)
    expect(await listed(b, EWOQ_C)).toEqual(ewoqListed)
    const answer = await b.api('/ext/bc/C/avax', 'avax.getUTXOs', { addresses: [cAddressOf(keyN(3))], sourceChain: 'X' })
    expect(answer.error?.message).toMatch(new RegExp(`^problem retrieving UTXOs: fork origin ${originName} is unreachable: `))
  })
})

/** avax.getUTXOs's answer listing nothing for `address`. */
const emptySet = (address: string) => ({ numFetched: '0', utxos: [], endIndex: { address, utxo: EMPTY_ID }, encoding: 'hex' })

describe('fork: a plain EVM origin has no atomic UTXOs', () => {
  let anvil: Anvil
  let b: TestNode

  beforeAll(async () => {
    anvil = await startAnvil()
    b = await startTestNode({ chain: { 'fork-url': anvil.url } })
  })

  afterAll(async () => {
    await b?.close()
    await anvil?.stop()
  })

  it('a fork of anvil answers avax.getUTXOs with an empty set, from X and from P', async () => {
    for (const sourceChain of ['X', 'P'] as const) expect(await rawUTXOs(b, EWOQ_C, sourceChain)).toEqual(emptySet(EWOQ_C))
  })
})

/**
 * An origin that serves A's EVM API at its own /ext/bc/C/rpc but no atomic API (a plain EVM node behind
 * avalanchego's URL shape): its avax path answers 404, as an HTTP server without the route does.
 */
describe('fork: an origin whose avax path answers 404 has no atomic UTXOs', () => {
  let a: TestNode
  let b: TestNode
  let proxy: Server
  let proxyURL: string
  /** Requests the fake origin got at its avax path. */
  let avaxAsked = 0
  let exportID: string

  beforeAll(async () => {
    a = await startTestNode()
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', async () => {
        if (req.url !== '/ext/bc/C/rpc') {
          if (req.url === '/ext/bc/C/avax') avaxAsked++
          res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n')
          return
        }
        const answer = await fetch(a.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
      })
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    proxyURL = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/ext/bc/C/rpc`
    exportID = await exportFromX(a, ewoqShort, 2_000_000_000n)
    b = await startTestNode({ chain: { 'fork-url': proxyURL } })
  })

  afterAll(async () => {
    await b?.close()
    await a?.close()
    await new Promise((resolve) => proxy?.close(resolve))
  })

  it("answers an empty set though the origin's node holds a UTXO for the address; asks the avax path once", async () => {
    expect(await listed(a, EWOQ_C)).toEqual([exportID])
    expect(await rawUTXOs(b, EWOQ_C)).toEqual(emptySet(EWOQ_C))
    expect(await rawUTXOs(b, EWOQ_C, 'P')).toEqual(emptySet(EWOQ_C))
    expect(await listed(b, cAddressOf(keyN(1)))).toEqual([])
    expect(avaxAsked).toBe(1)
  })

  it('anvil_reset forking an origin with an atomic API lists its UTXOs; forking the plain one again lists nothing', async () => {
    expect(await b.call('anvil_reset', [{ forking: { jsonRpcUrl: a.url } }])).toBeNull()
    expect(await listed(b, EWOQ_C)).toEqual([exportID])
    const { credit } = await importIntoC(api(b).c, context, 'X', exportID, cBalance(b, EWOQ_ADDRESS))
    expect(credit).toBeGreaterThan(0n)
    expect(await listed(b, EWOQ_C)).toEqual([])
    // Forking the plain origin again drops what B fetched from A with the marks: the plain origin lists nothing.
    expect(await b.call('anvil_reset', [{ forking: { jsonRpcUrl: proxyURL } }])).toBeNull()
    expect(await rawUTXOs(b, EWOQ_C)).toEqual(emptySet(EWOQ_C))
    expect(await listed(a, EWOQ_C)).toEqual([exportID])
  })
})
