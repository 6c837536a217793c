import { join } from 'node:path'
import { Wallet } from 'ethers'
import { createPublicClient, createWalletClient, defineChain, http, parseAbi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from '../helpers/chain.js'
import { CAST, cast } from '../helpers/devClients.js'
import { EWOQ_KEY, contracts, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * docs/ICM.md's recipe, as written there, against the node with the example chains: cast and viem
 * send a Teleporter message from the C-Chain to dexchain and read it received there. The
 * repository's test messenger stands at Teleporter's address (its deployment file is not shipped).
 */

const TELEPORTER = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf'
const WARP = '0x0200000000000000000000000000000000000005'
const RECEIVER = '0x1111111111111111111111111111111111111111'
const SEND_EVENT = 'SendCrossChainMessage(bytes32 indexed,bytes32 indexed,(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes),(address,uint256))'

describe("docs/ICM.md's recipe", () => {
  let node: TestNode
  let C: string
  let DEX: string
  beforeAll(async () => {
    node = await startTestNode({ config: { chainConfigDir: join(process.cwd(), 'examples/chains') } as never })
    C = node.url
    DEX = `http://127.0.0.1:${node.port}/ext/bc/dexchain/rpc`
    const relayer = (await node.call('icm_getRelayer')).address
    for (const url of [C, DEX]) {
      await cast('rpc', '--rpc-url', url, 'anvil_setCode', TELEPORTER, contracts.contracts.ICMTestMessenger.deployedBytecode)
      await cast('rpc', '--rpc-url', url, 'anvil_setBalance', relayer, '0x3635c9adc5dea00000')
    }
  })
  afterAll(() => node.close())

  const received = (id: string) => poll(async () => ((await cast('call', '--rpc-url', DEX, TELEPORTER, 'messageReceived(bytes32)(bool)', id)) === 'true' ? true : undefined), 'the delivery', 10_000)

  it('with cast', async () => {
    expect(CAST).toBeDefined()
    const dexID = await cast('call', '--rpc-url', DEX, WARP, 'getBlockchainID()(bytes32)')
    await cast(
      'send',
      '--rpc-url',
      C,
      '--private-key',
      EWOQ_KEY,
      TELEPORTER,
      'sendCrossChainMessage((bytes32,address,(address,uint256),uint256,address[],bytes))(bytes32)',
      `(${dexID},${RECEIVER},(0x0000000000000000000000000000000000000000,0),100000,[],0x68656c6c6f)`,
    )
    const logs = JSON.parse(await cast('logs', '--rpc-url', C, '--address', TELEPORTER, SEND_EVENT, '--json'))
    const id = logs.at(-1).topics[1]
    expect(await received(id)).toBe(true)
    expect(await cast('rpc', '--rpc-url', C, 'icm_pendingMessages')).toBe('[]')
  })

  it('with viem', async () => {
    const teleporter = TELEPORTER as `0x${string}`
    const abi = parseAbi([
      'struct FeeInfo { address feeTokenAddress; uint256 amount; }',
      'struct Input { bytes32 destinationBlockchainID; address destinationAddress; FeeInfo feeInfo; uint256 requiredGasLimit; address[] allowedRelayerAddresses; bytes message; }',
      'function sendCrossChainMessage(Input input) returns (bytes32)',
      'function messageReceived(bytes32 messageID) view returns (bool)',
      'function getBlockchainID() view returns (bytes32)',
    ])
    const local = (id: number, url: string) => defineChain({ id, name: 'local', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } })
    const c = createWalletClient({ chain: local(43112, C), transport: http(), account: privateKeyToAccount(EWOQ_KEY as `0x${string}`) })
    const dex = createPublicClient({ chain: local(99901, DEX), transport: http() })
    const dexID = await dex.readContract({ address: WARP, abi, functionName: 'getBlockchainID' })
    const { result: messageID, request } = await createPublicClient({ chain: c.chain, transport: http() }).simulateContract({
      account: c.account,
      address: teleporter,
      abi,
      functionName: 'sendCrossChainMessage',
      args: [
        {
          destinationBlockchainID: dexID,
          destinationAddress: RECEIVER,
          feeInfo: { feeTokenAddress: '0x0000000000000000000000000000000000000000', amount: 0n },
          requiredGasLimit: 100_000n,
          allowedRelayerAddresses: [],
          message: '0x68656c6c6f',
        },
      ],
    })
    await c.writeContract(request)
    expect(await poll(async () => ((await dex.readContract({ address: teleporter, abi, functionName: 'messageReceived', args: [messageID] })) ? true : undefined), 'the delivery')).toBe(true)
    expect(new Wallet(EWOQ_KEY).address).toBe(c.account.address)
  })
})
