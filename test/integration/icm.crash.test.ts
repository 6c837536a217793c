import { join } from 'node:path'
import { Interface } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from '../helpers/chain.js'
import { type ChildNode, assertBuilt, startChild } from '../helpers/childNode.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { contracts } from '../helpers/testNode.js'
import { WARP, chainAt, warp } from '../helpers/warp.js'

/*
 * The relayer after a kill -9 (docs/ICM.md): a message sent in an accepted block and not delivered
 * when the node died is delivered once the node is back, exactly once. The node (the CLI, a child
 * process) runs the repository's example chains; the message goes from the C-Chain to `dexchain`.
 */

const MESSENGER = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf'
const messenger = new Interface(contracts.contracts.ICMTestMessenger.abi as never)
const receiverAbi = new Interface(contracts.contracts.ICMTestReceiver.abi as never)
const tempDir = tempDirs('cchain-icm-crash-')
const CHAINS = join(process.cwd(), 'examples/chains')

describe('the ICM relayer after a kill -9', () => {
  let node: ChildNode | undefined
  beforeAll(() => assertBuilt())
  afterAll(() => {
    node?.proc.kill('SIGKILL')
    tempDir.removeAll()
  })

  it('delivers, once, what was sent and not delivered before the kill', async () => {
    const dir = tempDir()
    node = await startChild(dir, ['--chain-config-dir', CHAINS, '--icm-relayer', 'manual'])
    const base = node.url.replace('/ext/bc/C/rpc', '')
    const c = chainAt(node.url)
    const dex = chainAt(`${base}/ext/bc/dexchain/rpc`)
    const relayer = await c.call('icm_getRelayer')
    for (const chain of [c, dex]) {
      await chain.call('anvil_setCode', [MESSENGER, contracts.contracts.ICMTestMessenger.deployedBytecode])
      await chain.call('anvil_setBalance', [relayer.address, '0x3635c9adc5dea00000'])
    }
    const receiver = (await dex.send({ data: contracts.contracts.ICMTestReceiver.bytecode, gasLimit: 1_000_000n })).contractAddress
    const dexID = warp.decodeFunctionResult('getBlockchainID', await dex.call('eth_call', [{ to: WARP, data: warp.encodeFunctionData('getBlockchainID') }, 'latest']))[0]
    const input = {
      destinationBlockchainID: dexID,
      destinationAddress: receiver,
      feeInfo: { feeTokenAddress: `0x${'00'.repeat(20)}`, amount: 0n },
      requiredGasLimit: 100_000n,
      allowedRelayerAddresses: [],
      message: '0x42',
    }
    const sent = await c.send({ to: MESSENGER, data: messenger.encodeFunctionData('sendCrossChainMessage', [input]), gasLimit: 1_000_000n })
    expect(sent.status).toBe('0x1')
    expect(await c.call('icm_pendingMessages')).toHaveLength(1)

    node.proc.kill('SIGKILL')
    await new Promise((resolve) => node!.proc.once('exit', resolve))
    node = await startChild(dir, ['--chain-config-dir', CHAINS, '--icm-relayer', 'auto'])
    const back = chainAt(`${node.url.replace('/ext/bc/C/rpc', '')}/ext/bc/dexchain/rpc`)
    const received = async () => receiverAbi.decodeFunctionResult('received', await back.call('eth_call', [{ to: receiver, data: receiverAbi.encodeFunctionData('received') }, 'latest']))[0] as bigint
    await poll(async () => ((await received()) === 1n ? true : undefined), 'the delivery after the restart', 10_000)
    expect(await chainAt(node.url).call('icm_pendingMessages')).toEqual([])

    // Once: another restart delivers nothing more.
    node.proc.kill('SIGKILL')
    await new Promise((resolve) => node!.proc.once('exit', resolve))
    node = await startChild(dir, ['--chain-config-dir', CHAINS, '--icm-relayer', 'auto'])
    const again = chainAt(`${node.url.replace('/ext/bc/C/rpc', '')}/ext/bc/dexchain/rpc`)
    await again.call('evm_mine')
    expect(receiverAbi.decodeFunctionResult('received', await again.call('eth_call', [{ to: receiver, data: receiverAbi.encodeFunctionData('received') }, 'latest']))[0]).toBe(1n)
  })
})
