import { Interface, Wallet, getAddress } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy } from '../helpers/chain.js'
import { type Artifact, MESSENGER, type Chain, avalancheSdkArtifact, ewoq, icmNode, tempDir, until } from '../helpers/icm.js'
import { iface } from '../helpers/chain.js'

/*
 * Avalanche's Interchain Token Transfer (ICTT) over the node's relayer: ERC20TokenHome on the C-Chain
 * and ERC20TokenRemote on an extra chain, with a TeleporterRegistry on each naming the messenger
 * (the repository's Teleporter-protocol messenger at Teleporter's address). The ICTT and registry
 * contracts are Ava Labs' own builds as @avalanche-sdk/client ships them (its
 * src/methods/wallet/abis/*.ts, BSD-3-Clause). The remote registers with its home, tokens go there
 * and come back, balances on both sides as the contracts define them.
 */

async function create(chain: Chain, a: Artifact, args: unknown[]): Promise<string> {
  const data = a.bytecode + new Interface(a.abi as never).encodeDeploy(args).slice(2)
  const receipt = await chain.send({ data, gasLimit: 8_000_000n })
  expect(receipt.status).toBe('0x1')
  return getAddress(receipt.contractAddress)
}

afterAll(() => tempDir.removeAll())

describe('ICTT: ERC20TokenHome on the C-Chain, ERC20TokenRemote on an extra chain', () => {
  let t: Awaited<ReturnType<typeof icmNode>>
  let home: string
  let remote: string
  let token: string
  let homeAbi: Interface
  let remoteAbi: Interface
  const erc20 = iface('TestToken')
  const recipient = Wallet.createRandom().address
  const balance = async (chain: Chain, contract: string, abi: Interface, who: string): Promise<bigint> =>
    abi.decodeFunctionResult('balanceOf', await chain.call('eth_call', [{ to: contract, data: abi.encodeFunctionData('balanceOf', [who]) }, 'latest']))[0]

  beforeAll(async () => {
    t = await icmNode()
    const [homeArt, remoteArt, registryArt] = await Promise.all([avalancheSdkArtifact('tokenHome'), avalancheSdkArtifact('tokenRemote'), avalancheSdkArtifact('teleporterRegistry')])
    homeAbi = new Interface(homeArt.abi as never)
    remoteAbi = new Interface(remoteArt.abi as never)
    const registryC = await create(t.c, registryArt, [[[1n, MESSENGER]]])
    const registryL1 = await create(t.l1, registryArt, [[[1n, MESSENGER]]])
    token = (await deploy(t.node, 'TestToken', [10n ** 24n])).address
    home = await create(t.c, homeArt, [registryC, ewoq.address, 1n, token, 18])
    remote = await create(t.l1, remoteArt, [[registryL1, ewoq.address, 1n, t.ids.c, home, 18], 'Wrapped Test', 'wTT', 18])
  }, 60_000)
  afterAll(() => t?.node.close())

  it('registers the remote with its home (one message l1 -> C)', async () => {
    const receipt = await t.l1.send({ to: remote, data: remoteAbi.encodeFunctionData('registerWithHome', [[`0x${'00'.repeat(20)}`, 0n]]), gasLimit: 1_000_000n })
    expect(receipt.status).toBe('0x1')
    const registered = homeAbi.getEvent('RemoteRegistered')
    await until(async () => {
      const logs = await t.c.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: home, topics: [registered!.topicHash] }])
      return logs.length === 1
    }, 'the registration on the home chain')
  })

  it('sends 1,000 tokens to the extra chain (locked on C, minted there) and 400 back', async () => {
    const amount = 1_000n * 10n ** 18n
    await t.c.send({ to: token, data: erc20.encodeFunctionData('approve', [home, amount]), gasLimit: 100_000n })
    const input = [t.ids.l1, remote, recipient, token, 0n, 0n, 250_000n, `0x${'00'.repeat(20)}`]
    const sent = await t.c.send({ to: home, data: homeAbi.encodeFunctionData('send', [input, amount]), gasLimit: 1_000_000n })
    expect(sent.status).toBe('0x1')
    expect(await balance(t.c, token, erc20, home)).toBe(amount)
    await until(async () => (await balance(t.l1, remote, remoteAbi, recipient)) === amount, 'the tokens on the extra chain')

    // The recipient (funded on the extra chain) sends 400 back to ewoq on the C-Chain.
    const back = 400n * 10n ** 18n
    await t.l1.call('anvil_impersonateAccount', [recipient])
    await t.l1.call('anvil_setBalance', [recipient, '0x56bc75e2d63100000'])
    // The remote's tokens are an ERC-20 of its own: the holder lets it take what it sends back, as any ICTT transfer.
    await t.l1.call('eth_sendTransaction', [{ from: recipient, to: remote, data: remoteAbi.encodeFunctionData('approve', [remote, back]), gas: '0x186a0' }])
    const backInput = [t.ids.c, home, ewoq.address, remote, 0n, 0n, 250_000n, `0x${'00'.repeat(20)}`]
    const hash = await t.l1.call('eth_sendTransaction', [{ from: recipient, to: remote, data: remoteAbi.encodeFunctionData('send', [backInput, back]), gas: '0xf4240' }])
    expect((await t.l1.call('eth_getTransactionReceipt', [hash])).status).toBe('0x1')
    const ewoqBefore = 10n ** 24n - amount
    await until(async () => (await balance(t.c, token, erc20, ewoq.address)) === ewoqBefore + back, 'the tokens back on the C-Chain')
    expect(await balance(t.c, token, erc20, home)).toBe(amount - back)
    expect(await balance(t.l1, remote, remoteAbi, recipient)).toBe(amount - back)
    expect(await t.c.call('icm_pendingMessages')).toEqual([])
  })
})
