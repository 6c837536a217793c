import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { JsonRpcProvider, Wallet, parseEther } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BLACKHOLE, mintchainConfigDir, rpcAnswer, startMintchain } from '../helpers/subnetEvm.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { EWOQ_KEY, type TestNode } from '../helpers/testNode.js'

/*
 * subnet-evm's fee recipients (docs/L1.md): with `allowFeeRecipients` in the genesis and no reward
 * manager, the blocks this node builds go to its `feeRecipient` (chain config), with the whole fee
 * (subnet-evm miner/worker.go, core/state_transition.go); without the key, to the blackhole.
 */

describe('a subnet-evm chain that allows fee recipients', () => {
  const tempDir = tempDirs('subnet-evm-recipient-')
  const recipient = Wallet.createRandom().address
  let node: TestNode
  let url: string

  beforeAll(async () => {
    const dir = mintchainConfigDir(tempDir)
    const file = join(dir, 'mintchain', 'genesis.json')
    const genesis = JSON.parse(readFileSync(file, 'utf8'))
    genesis.config.allowFeeRecipients = true
    delete genesis.config.rewardManagerConfig
    writeFileSync(file, JSON.stringify(genesis))
    writeFileSync(join(dir, 'mintchain', 'config.json'), JSON.stringify({ feeRecipient: recipient }))
    ;({ node, url } = await startMintchain(dir))
  })
  afterAll(async () => {
    await node?.close()
    tempDir.removeAll()
  })

  it("pays the whole fee to the node's feeRecipient, the blocks' miner", async () => {
    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 })
    const receipt = (await (await new Wallet(EWOQ_KEY, provider).sendTransaction({ to: recipient, value: parseEther('1') })).wait())!
    const block = (await rpcAnswer(url, 'eth_getBlockByNumber', [`0x${receipt.blockNumber.toString(16)}`, false])).result
    expect(block.miner).toBe(recipient.toLowerCase())
    expect(block.miner).not.toBe(BLACKHOLE)
    expect(await provider.getBalance(recipient)).toBe(parseEther('1') + receipt.gasUsed * receipt.gasPrice)
    expect((await rpcAnswer(url, 'eth_getChainConfig')).result.allowFeeRecipients).toBe(true)
    provider.destroy()
  })
})
