import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Interface, Wallet, getAddress } from 'ethers'
import { expect } from 'vitest'
import { cb58Decode } from '../../src/avalanche/cb58.js'
import { tempDirs } from './tempDirs.js'
import { EWOQ_KEY, contracts, startTestNode } from './testNode.js'
import { chainAt, hex } from './warp.js'

/*
 * A node with the C-Chain and an extra chain ("l1") for the relayer's tests, with the repository's
 * Teleporter-protocol messenger (test/fixtures/contracts/ICMTestMessenger.sol) at Teleporter's address.
 */

export const MESSENGER = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf'
export const messenger = new Interface(contracts.contracts.ICMTestMessenger.abi as never)
export const receiverAbi = new Interface(contracts.contracts.ICMTestReceiver.abi as never)
export const ewoq = new Wallet(EWOQ_KEY)
const LOCAL_GENESIS = fileURLToPath(new URL('../../config/local-genesis.json', import.meta.url))
/** The files' temporary directories: each test file removes them in its afterAll. */
export const tempDir = tempDirs('cchain-icm-')

export type Chain = ReturnType<typeof chainAt>

/** A node with the C-Chain and one extra chain (EVM chain ID 99901), the messenger on both, the relayer funded on both. */
export async function icmNode(config: Record<string, unknown> = {}, dataDir?: string, install = dataDir === undefined) {
  const dir = dataDir ?? tempDir()
  const genesis = JSON.parse(readFileSync(LOCAL_GENESIS, 'utf8'))
  const l1Genesis = join(dir, 'l1-genesis.json')
  writeFileSync(l1Genesis, JSON.stringify({ ...genesis, config: { ...genesis.config, chainId: 99901 } }))
  const node = await startTestNode({ dataDir: dir, config: { evmChains: [{ name: 'l1', genesisFile: l1Genesis, chain: {} }], ...config } as never })
  const c = chainAt(node.url)
  const l1 = chainAt(`http://127.0.0.1:${node.port}/ext/bc/l1/rpc`)
  const relayer = await c.call('icm_getRelayer')
  if (install) {
    for (const chain of [c, l1]) {
      await chain.call('anvil_setCode', [MESSENGER, contracts.contracts.ICMTestMessenger.deployedBytecode])
      await chain.call('anvil_setBalance', [relayer.address, '0x3635c9adc5dea00000'])
    }
  }
  const ids = { c: hex(cb58Decode(node.node.blockchainId)), l1: hex(cb58Decode(node.node.extraChains[0]!.spec.id)) }
  return { node, c, l1, ids, relayer }
}

export async function deployReceiver(chain: Chain): Promise<string> {
  const receipt = await chain.send({ data: contracts.contracts.ICMTestReceiver.bytecode, gasLimit: 1_000_000n })
  return getAddress(receipt.contractAddress)
}

/** sendCrossChainMessage from ewoq; the receipt and the Teleporter message ID. */
export async function sendMessage(chain: Chain, destination: string, to: string, message: string, opts: { relayers?: string[]; gas?: bigint } = {}) {
  const input = {
    destinationBlockchainID: destination,
    destinationAddress: to,
    feeInfo: { feeTokenAddress: '0x' + '00'.repeat(20), amount: 0n },
    requiredGasLimit: opts.gas ?? 200_000n,
    allowedRelayerAddresses: opts.relayers ?? [],
    message,
  }
  const receipt = await chain.send({ to: MESSENGER, data: messenger.encodeFunctionData('sendCrossChainMessage', [input]), gasLimit: 1_000_000n })
  expect(receipt.status).toBe('0x1')
  const log = receipt.logs
    .map((l: any) => {
      try {
        return messenger.parseLog(l)
      } catch {
        return null
      }
    })
    .find((p: any) => p?.name === 'SendCrossChainMessage')!
  return { receipt, id: log.args.messageID as string, message: log.args.message }
}

export const read = async (chain: Chain, to: string, fn: string, iface = receiverAbi, args: unknown[] = []) =>
  iface.decodeFunctionResult(fn, await chain.call('eth_call', [{ to, data: iface.encodeFunctionData(fn, args) }, 'latest']))[0]

/** Waits (bounded) until `check` holds: the relayer delivers after the sending block is accepted. */
export async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

export const eventsIn = async (chain: Chain, name: string) =>
  ((await chain.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: MESSENGER, topics: [messenger.getEvent(name)!.topicHash] }])) as any[]).map((l) => messenger.parseLog(l)!)

/** An Ava Labs build of an ICM contract as @avalanche-sdk/client ships it (its src/methods/wallet/abis/*.ts, BSD-3-Clause). */
export type Artifact = { abi: unknown[]; bytecode: string }

export async function avalancheSdkArtifact(name: 'tokenHome' | 'tokenRemote' | 'teleporterRegistry'): Promise<Artifact> {
  const m = await import(join(process.cwd(), `node_modules/@avalanche-sdk/client/src/methods/wallet/abis/${name}.ts`))
  return { abi: m[`${name}ABI`], bytecode: m[`${name}Bytecode`] }
}
