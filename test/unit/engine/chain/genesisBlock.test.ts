import { MerkleStateManager } from '@ethereumjs/statemanager'
import { bytesToHex } from '@ethereumjs/util'
import { Wallet } from 'ethers'
import { describe, expect, it } from 'vitest'
import { headerFields, headerFromFields } from '../../../../src/engine/chain/block.js'
import { genesisBlock } from '../../../../src/engine/chain/genesisBlock.js'
import { chainCommon } from '../../../../src/engine/rules/chainCommon.js'
import type { Genesis } from '../../../../src/engine/rules/genesis.js'
import { SubnetEvmRules } from '../../../../src/engine/rules/subnetEvmRules.js'
import { VALID_TEST_FEE_CONFIG_JSON } from '../../subnetevm/testFeeConfigs.js'

/*
 * subnet-evm's genesis block, against the one subnet-evm's own RPC tests serve (internal/ethapi
 * api_test.go TestRPCGetBlockOrHeader: params.TestChainConfig, every upgrade at 0, its two accounts and
 * newTestBackend's keystore account of one ether each, no gas limit and no difficulty given; testdata/eth_getBlockByHash-hash-genesis.json).
 */

const ALL_AT_ZERO = { durango: 0n, etna: 0n, fortuna: 0n, granite: 0n, helicon: 0n }
const ETHER = 10n ** 18n

describe("a subnet-evm genesis block (subnet-evm's RPC test vector)", () => {
  it('has the state root, header fields and hash subnet-evm gives it', async () => {
    const accounts = [
      '8a1f9a8f95be41cd7ccb6168179afb4504aefe388d1e14474d32c45c72ce7b7a',
      '49a7b37aa6f6645917e7b807e9d1c00d4fa71f18343b0d4122a4d2df64dd6fee',
      'b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291',
    ].map((k) => new Wallet(`0x${k}`).address)
    const config = {
      chainId: 1,
      homesteadBlock: 0,
      eip150Block: 0,
      eip155Block: 0,
      eip158Block: 0,
      byzantiumBlock: 0,
      constantinopleBlock: 0,
      petersburgBlock: 0,
      istanbulBlock: 0,
      muirGlacierBlock: 0,
      berlinBlock: 0,
      londonBlock: 0,
      feeConfig: { ...VALID_TEST_FEE_CONFIG_JSON },
    }
    const genesis: Genesis = {
      config,
      nonce: 0n,
      timestamp: 0n,
      extraData: '0x',
      gasLimit: 0n,
      alloc: Object.fromEntries(accounts.map((a) => [a, { balance: ETHER }])),
      number: 0n,
      gasUsed: 0n,
    } as unknown as Genesis
    const rules = SubnetEvmRules.parse(config, undefined, { networkId: 12345, upgradeTimes: ALL_AT_ZERO })
    const sm = new MerkleStateManager({ common: chainCommon(1n) })
    const block = await genesisBlock(genesis, sm, false, rules)
    expect(bytesToHex(block.header.stateRoot)).toBe('0xd883f48b83cc9c1e8389453beb4ad4e572462eec049ca4fffbe16ecefb3fe937')
    expect(block.header.gasLimit).toBe(4_712_388n)
    expect(block.header.difficulty).toBe(131_072n)
    expect(block.header.baseFee).toBe(25_000_000_000n)
    expect(block.header.minDelayExcess).toBe(7_970_124n)
    expect(bytesToHex(block.hash)).toBe('0x3dab1f520258d2b470c8fb84c334d37cdc1d4e25f8df44b006be1bb33cfd3856')
    // Its 22 RLP fields read back as the same header.
    const fields = headerFields(block.header)
    expect(fields).toHaveLength(22)
    expect(headerFromFields(fields)).toEqual(block.header)
  })
})
