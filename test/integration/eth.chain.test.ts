import { keccak256, toUtf8Bytes } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLAIN_CLIENT_VERSION } from '../helpers/constants.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

/** eth_getChainConfig of a current (v1.14.x) local node, exactly (coreth: internal/ethapi/api_extra.go). */
const LOCAL_CHAIN_CONFIG = {
  apricotPhase1BlockTimestamp: 1607144400,
  apricotPhase2BlockTimestamp: 1607144400,
  apricotPhase3BlockTimestamp: 1607144400,
  apricotPhase4BlockTimestamp: 1607144400,
  apricotPhase5BlockTimestamp: 1607144400,
  apricotPhase6BlockTimestamp: 1607144400,
  apricotPhasePost6BlockTimestamp: 1607144400,
  apricotPhasePre6BlockTimestamp: 1607144400,
  banffBlockTimestamp: 1607144400,
  berlinBlock: 0,
  byzantiumBlock: 0,
  cancunTime: 1607144400,
  chainId: 43112,
  constantinopleBlock: 0,
  cortinaBlockTimestamp: 1607144400,
  daoForkBlock: 0,
  daoForkSupport: true,
  durangoBlockTimestamp: 1607144400,
  eip150Block: 0,
  eip155Block: 0,
  eip158Block: 0,
  etnaTimestamp: 1607144400,
  fortunaTimestamp: 1607144400,
  graniteTimestamp: 1607144400,
  heliconTimestamp: 1607144400,
  homesteadBlock: 0,
  istanbulBlock: 0,
  londonBlock: 0,
  muirGlacierBlock: 0,
  petersburgBlock: 0,
  shanghaiTime: 1607144400,
}

describe('chain identity and node status (eth_, net_, web3_)', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  it('eth_chainId is 0xa868 (43112, the local C-Chain)', async () => {
    expect(await node.call('eth_chainId')).toBe('0xa868')
  })

  it('eth_syncing is false', async () => {
    expect(await node.call('eth_syncing')).toBe(false)
  })

  it('eth_getChainConfig equals that of a v1.15.1 local node (Helicon from genesis), keys sorted as libevm marshals them', async () => {
    const r = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_getChainConfig","params":[]}' })
    const text = await r.text()
    const result = JSON.parse(text).result
    expect(result).toStrictEqual(LOCAL_CHAIN_CONFIG)
    expect(Object.keys(result)).toEqual(Object.keys(LOCAL_CHAIN_CONFIG).sort())
    // Big-int fields are JSON numbers, not strings.
    expect(text).toContain('"heliconTimestamp":1607144400')
  })

  it('net_version is "1" (the EVM network ID), net_listening true, net_peerCount 0x0', async () => {
    expect(await node.call('net_version')).toBe('1')
    expect(await node.call('net_listening')).toBe(true)
    expect(await node.call('net_peerCount')).toBe('0x0')
  })

  it('net_version follows the configured EVM network ID', async () => {
    const other = await startTestNode({ config: { evmNetworkId: 7 } })
    try {
      expect(await other.call('net_version')).toBe('7')
    } finally {
      await other.close()
    }
  })

  it('web3_clientVersion names the client geth-style, led by HardhatNetwork/ where the development controls are on (docs/DEV.md)', async () => {
    expect(await node.call('web3_clientVersion')).toBe(`HardhatNetwork/${PLAIN_CLIENT_VERSION}`)
    const off = await startTestNode({ config: { devControls: false } })
    try {
      expect(await off.call('web3_clientVersion')).toBe(PLAIN_CLIENT_VERSION)
    } finally {
      await off.close()
    }
  })

  it('web3_sha3 is keccak-256 of the bytes', async () => {
    expect(await node.call('web3_sha3', ['0x'])).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    expect(await node.call('web3_sha3', ['0x68656c6c6f20776f726c64'])).toBe(keccak256(toUtf8Bytes('hello world')))
    const bad = await node.rpc('web3_sha3', ['hello'])
    expect(bad.error).toEqual({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes' })
  })

  it('eth_accounts is empty (no unlocked accounts), eth_coinbase is the fee blackhole', async () => {
    expect(await node.call('eth_accounts')).toEqual([])
    expect(await node.call('eth_coinbase')).toBe('0x0100000000000000000000000000000000000000')
  })
})
