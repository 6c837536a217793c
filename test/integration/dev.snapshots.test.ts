/**
 * Snapshots, reset and head-state edits (issue 15) as test suites drive them: viem's test client in
 * anvil and hardhat modes, `cast rpc` with the raw names, and an atomic C -> X export with the X-Chain
 * import after it, all undone by evm_revert; a revert survives a restart; the controls are off where
 * they must be.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addTxSignatures, avm, evm, info, type Context } from '@avalabs/avalanchejs'
import { createTestClient, createWalletClient, http, publicActions, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { EWOQ as ewoqShort, EWOQ_ETH as ewoqEth, EWOQ_KEY as privateKey, waitAtomicAccepted } from '../helpers/avalanchejs.js'
import { AVAX, EWOQ_ADDRESS, EWOQ_KEY, EWOQ_X, LOCAL_C, LOCAL_P, LOCAL_X, NANO } from '../helpers/constants.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'
import { castRpc, localChain } from '../helpers/devClients.js'
import { assertBuilt, exited, rpcAt, startChild, stopChild } from '../helpers/childNode.js'

const OTHER = '0x00000000000000000000000000000000000d0d0d' as const

let tn: TestNode
beforeAll(async () => {
  tn = await startTestNode()
})
afterAll(() => tn?.close())

const balanceOf = async (a: string): Promise<bigint> => BigInt(await tn.call('eth_getBalance', [a, 'latest']))
const head = async (): Promise<bigint> => BigInt(await tn.call('eth_blockNumber', []))

describe.each(['anvil', 'hardhat'] as const)("viem's test client in %s mode", (mode) => {
  it('snapshot, edits and a mined transfer, revert: everything as before; the id is used up', async () => {
    const test = createTestClient({ mode, chain: localChain(tn.url), transport: http(tn.url) }).extend(publicActions)
    const wallet = createWalletClient({ account: privateKeyToAccount(EWOQ_KEY as Hex), chain: localChain(tn.url), transport: http(tn.url) })
    const target = `0x${mode === 'anvil' ? 'a1' : 'b2'}${'00'.repeat(18)}01` as Hex
    const [ewoqBefore, headBefore] = [await balanceOf(EWOQ_ADDRESS), await head()]

    const id = await test.snapshot()
    await test.setBalance({ address: target, value: 5n * 10n ** 18n })
    await test.setNonce({ address: target, nonce: 7 })
    await test.setCode({ address: target, bytecode: '0x60006000f3' })
    await test.setStorageAt({ address: target, index: 3, value: `0x${'00'.repeat(31)}2a` })
    expect(await test.getBalance({ address: target })).toBe(5n * 10n ** 18n)
    expect(await test.getTransactionCount({ address: target })).toBe(7)
    expect(await test.getCode({ address: target })).toBe('0x60006000f3')
    expect(await test.getStorageAt({ address: target, slot: '0x3' })).toBe(`0x${'00'.repeat(31)}2a`)

    // The next block builds on the edited state: a transfer to the edited account adds to it.
    const hash = await wallet.sendTransaction({ to: target, value: 1000n })
    const receipt = await test.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await test.getBalance({ address: target })).toBe(5n * 10n ** 18n + 1000n)
    expect(await head()).toBe(headBefore + 1n)

    await test.revert({ id })
    expect(await test.getBalance({ address: target })).toBe(0n)
    expect(await test.getTransactionCount({ address: target })).toBe(0)
    expect(await test.getCode({ address: target })).toBeUndefined()
    expect(await balanceOf(EWOQ_ADDRESS)).toBe(ewoqBefore)
    expect(await head()).toBe(headBefore)
    expect(await tn.call('eth_getTransactionReceipt', [hash])).toBeNull()
    // Used up: a second revert to the same id answers false.
    expect(await tn.call('evm_revert', [id])).toBe(false)

    // The chain goes on from the snapshot: the same transfer mines again at the same height.
    const again = await wallet.sendTransaction({ to: target, value: 1000n })
    expect((await test.waitForTransactionReceipt({ hash: again })).blockNumber).toBe(headBefore + 1n)
    expect(await test.getBalance({ address: target })).toBe(1000n)
  })
})

describe('raw names', () => {
  it('nested snapshots: reverting to an older one uses up the newer; unknown ids answer false', async () => {
    const a = await tn.call('evm_snapshot', [])
    await tn.call('anvil_setBalance', [OTHER, '0x10'])
    const b = await tn.call('anvil_snapshot', [])
    expect(BigInt(b)).toBe(BigInt(a) + 1n)
    await tn.call('hardhat_setBalance', [OTHER, '0x20'])
    expect(await tn.call('evm_revert', [b])).toBe(true)
    expect(await balanceOf(OTHER)).toBe(0x10n)
    const c = await tn.call('evm_snapshot', [])
    await tn.call('anvil_addBalance', [OTHER, '0x5'])
    expect(await balanceOf(OTHER)).toBe(0x15n)
    expect(await tn.call('anvil_revert', [a])).toBe(true)
    expect(await balanceOf(OTHER)).toBe(0n)
    expect(await tn.call('evm_revert', [c])).toBe(false)
    expect(await tn.call('evm_revert', ['0x99'])).toBe(false)
  })

  it('answers as anvil and hardhat do, and a bad argument is -32602', async () => {
    expect(await tn.call('anvil_setBalance', [OTHER, '1000'])).toBeNull()
    expect(await balanceOf(OTHER)).toBe(1000n)
    expect(await tn.call('hardhat_setBalance', [OTHER, '0x0000000000000000000000000000000000000000000000000000000000000010'])).toBe(true)
    expect(await balanceOf(OTHER)).toBe(16n)
    expect(await tn.call('anvil_setStorageAt', [OTHER, '0x0', `0x${'00'.repeat(31)}01`])).toBe(true)
    expect(await tn.call('hardhat_setStorageAt', [OTHER, '0x1', `0x${'00'.repeat(31)}02`])).toBe(true)
    expect(await tn.call('eth_getStorageAt', [OTHER, '0x1', 'latest'])).toBe(`0x${'00'.repeat(31)}02`)
    expect(await tn.call('hardhat_setCode', [OTHER, '0x60ff'])).toBe(true)
    expect(await tn.call('eth_getCode', [OTHER, 'latest'])).toBe('0x60ff')
    expect(await tn.call('hardhat_setNonce', [OTHER, '0x3'])).toBe(true)
    expect(await tn.call('eth_getTransactionCount', [OTHER, 'latest'])).toBe('0x3')
    expect(await tn.call('anvil_setCode', [OTHER, '0x'])).toBeNull()
    expect(await tn.call('anvil_setNonce', [OTHER, '0x0'])).toBeNull()
    const bad = await tn.rpc('anvil_setBalance', [OTHER, 'lots'])
    expect(bad.error?.code).toBe(-32602)
    expect((await tn.rpc('anvil_setBalance', ['0x12', '0x1'])).error?.code).toBe(-32602)
  })

  it('cast rpc drives snapshot, setBalance and revert', async () => {
    const cast = (method: string, ...params: string[]) => castRpc(tn.url, method, ...params)
    const id = JSON.parse(await cast('evm_snapshot'))
    await cast('anvil_setBalance', OTHER, '0xde0b6b3a7640000')
    expect(await balanceOf(OTHER)).toBe(10n ** 18n)
    expect(await cast('evm_revert', id)).toBe('true')
    expect(await balanceOf(OTHER)).not.toBe(10n ** 18n)
  })

  it('the edited state root is what eth_getProof proves at latest', async () => {
    await tn.call('anvil_setBalance', [OTHER, '0x77'])
    const proof = await tn.call('eth_getProof', [OTHER, [], 'latest'])
    expect(BigInt(proof.balance)).toBe(0x77n)
  })
})

describe('a snapshot covers the atomic side and the X-Chain', () => {
  it('an export C -> X and its import on X are undone: status Unknown, balances and UTXOs as before', async () => {
    const baseURL = `http://127.0.0.1:${tn.port}`
    const capi = new evm.EVMApi(baseURL)
    const xapi = new avm.AVMApi(baseURL)
    const { blockchainID: x } = await new info.InfoApi(baseURL).getBlockchainId('X')
    const context = {
      networkID: 12345,
      hrp: 'local',
      xBlockchainID: x,
      pBlockchainID: LOCAL_P,
      cBlockchainID: LOCAL_C,
      avaxAssetID: AVAX,
      baseTxFee: 1_000_000n,
      createAssetTxFee: 10_000_000n,
      platformFeeConfig: {},
    } as unknown as Context.Context
    const xBalance = async (): Promise<bigint> => BigInt(((await xapi.getBalance({ address: EWOQ_X, assetID: AVAX } as never)) as unknown as { balance: string }).balance)
    const [cBefore, xBefore, headBefore] = [await balanceOf(EWOQ_ADDRESS), await xBalance(), await head()]

    const id = await tn.call('evm_snapshot', [])
    const baseFee = ((await capi.getBaseFee()) + NANO - 1n) / NANO
    const nonce = BigInt(await tn.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest']))
    const exportTx = evm.newExportTxFromBaseFee(context, baseFee, 500_000_000n, LOCAL_X, ewoqEth, [ewoqShort], nonce)
    await addTxSignatures({ unsignedTx: exportTx, privateKeys: [privateKey] })
    const { txID } = await capi.issueSignedTx(exportTx.getSignedTx())
    await waitAtomicAccepted(capi, txID)
    const atomic = (await xapi.getUTXOs({ addresses: [EWOQ_X], sourceChain: 'C' })).utxos
    expect(atomic.map((u) => u.utxoId.txID.toString())).toContain(txID)
    const importTx = avm.newImportTx(context, LOCAL_C, atomic, [ewoqShort], [ewoqShort])
    await addTxSignatures({ unsignedTx: importTx, privateKeys: [privateKey] })
    await xapi.issueSignedTx(importTx.getSignedTx())
    expect(await xBalance()).toBeGreaterThan(xBefore)

    expect(await tn.call('evm_revert', [id])).toBe(true)
    expect((await capi.getAtomicTxStatus(txID)).status).toBe('Unknown')
    expect(await balanceOf(EWOQ_ADDRESS)).toBe(cBefore)
    expect(await xBalance()).toBe(xBefore)
    expect(await head()).toBe(headBefore)
    expect((await xapi.getUTXOs({ addresses: [EWOQ_X], sourceChain: 'C' })).utxos).toHaveLength(0)

    // The same export can be issued again (its input is unspent again) and is accepted.
    const { txID: again } = await capi.issueSignedTx(exportTx.getSignedTx())
    expect(again).toBe(txID)
    await waitAtomicAccepted(capi, txID)
  })
})

describe('durability and reset', () => {
  it('a revert holds across a restart, and so does a live snapshot', async () => {
    const node = await startTestNode()
    try {
      const id = await node.call('evm_snapshot', [])
      await node.call('anvil_setBalance', [OTHER, '0x1234'])
      const later = await node.call('evm_snapshot', [])
      await node.call('anvil_setBalance', [OTHER, '0x5678'])
      expect(await node.call('evm_revert', [later])).toBe(true)
      await node.stop()
      const again = await startTestNode({ dataDir: node.dataDir })
      try {
        expect(BigInt(await again.call('eth_getBalance', [OTHER, 'latest']))).toBe(0x1234n)
        expect(await again.call('evm_revert', [id])).toBe(true)
        expect(BigInt(await again.call('eth_getBalance', [OTHER, 'latest']))).toBe(0n)
      } finally {
        await again.close()
      }
    } finally {
      await node.close()
    }
  })

  it('kill -9 right after a revert or a reset answered: the node restarts at the state it answered with', async () => {
    assertBuilt()
    const dataDir = mkdtempSync(join(tmpdir(), 'cchain-dev-kill-'))
    try {
      let child = await startChild(dataDir)
      const id = await rpcAt(child.url, 'evm_snapshot')
      for (let i = 1; i <= 5; i++) await rpcAt(child.url, 'anvil_setBalance', [OTHER, `0x${i}`])
      expect(await rpcAt(child.url, 'evm_revert', [id])).toBe(true)
      child.proc.kill('SIGKILL')
      await exited(child.proc)
      child = await startChild(dataDir)
      expect(await rpcAt(child.url, 'eth_getBalance', [OTHER, 'latest'])).toBe('0x0')
      await rpcAt(child.url, 'anvil_setBalance', [OTHER, '0x9'])
      expect(await rpcAt(child.url, 'anvil_reset')).toBeNull()
      child.proc.kill('SIGKILL')
      await exited(child.proc)
      child = await startChild(dataDir)
      expect(await rpcAt(child.url, 'eth_getBalance', [OTHER, 'latest'])).toBe('0x0')
      expect(await rpcAt(child.url, 'eth_blockNumber')).toBe('0x0')
      await stopChild(child.proc)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('anvil_reset goes back to the genesis: head 0, edits and blocks gone, snapshots used up', async () => {
    const node = await startTestNode()
    try {
      const genesis = await node.call('eth_getBlockByNumber', ['0x0', false])
      const id = await node.call('evm_snapshot', [])
      await node.call('anvil_setBalance', [OTHER, '0x99'])
      const wallet = createWalletClient({ account: privateKeyToAccount(EWOQ_KEY as Hex), chain: localChain(node.url), transport: http(node.url) })
      await wallet.sendTransaction({ to: OTHER, value: 1n })
      expect(await node.call('anvil_reset', [])).toBeNull()
      expect(await node.call('eth_blockNumber', [])).toBe('0x0')
      expect((await node.call('eth_getBlockByNumber', ['latest', false])).hash).toBe(genesis.hash)
      expect(BigInt(await node.call('eth_getBalance', [OTHER, 'latest']))).toBe(0n)
      expect(await node.call('evm_revert', [id])).toBe(false)
      expect(await node.call('hardhat_reset', [])).toBe(true)
    } finally {
      await node.close()
    }
  })
})

describe('an extra EVM chain', () => {
  it('has its own snapshots at its own path: a revert there leaves the C-Chain alone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cchain-dev-extra-'))
    const genesis = JSON.parse(readFileSync(join(process.cwd(), 'config/local-genesis.json'), 'utf8'))
    const extraGenesis = join(dataDir, 'extra-genesis.json')
    writeFileSync(extraGenesis, JSON.stringify({ ...genesis, config: { ...genesis.config, chainId: 43199 } }))
    const node = await startTestNode({ dataDir, config: { evmChains: [{ name: 'extra', genesisFile: extraGenesis }] } })
    try {
      const extra = node.url.replace('/ext/bc/C/rpc', '/ext/bc/extra/rpc')
      const id = await rpcAt(extra, 'evm_snapshot')
      expect(id).toBe('0x0')
      await rpcAt(extra, 'anvil_setBalance', [OTHER, '0x42'])
      await node.call('anvil_setBalance', [OTHER, '0x43'])
      expect(await rpcAt(extra, 'evm_revert', [id])).toBe(true)
      expect(await rpcAt(extra, 'eth_getBalance', [OTHER, 'latest'])).toBe('0x0')
      expect(await node.call('eth_getBalance', [OTHER, 'latest'])).toBe('0x43')
    } finally {
      await node.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('where they are off', () => {
  it('answer -32601 when disabled, on a public network ID (Fuji, 5), or with eth-apis without "dev"', async () => {
    for (const opts of [{ config: { devControls: false } }, { config: { networkId: 5 } }, { chain: { 'eth-apis': ['eth', 'internal-blockchain'] } }]) {
      const node = await startTestNode(opts)
      try {
        const answer = await node.rpc('evm_snapshot', [])
        expect(answer.error?.code).toBe(-32601)
        expect((await node.rpc('anvil_setBalance', [OTHER, '0x1'])).error?.code).toBe(-32601)
      } finally {
        await node.close()
      }
    }
  })
})
