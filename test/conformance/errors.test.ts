import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * geth's -32602 texts for malformed arguments, derived from its decoders (common/hexutil/json.go
 * wrapTypeError, rpc/types.go BlockNumber and BlockNumberOrHash, internal/ethapi decodeStorageKey),
 * complementing the recorded vectors, which hold only a few of them.
 */

const H = '0x' + '00'.repeat(32)
const CASES: [string, unknown[], string][] = [
  // Fixed-size hex (common.Address / common.Hash): decoding errors wrapped, the length error not.
  ['eth_getBalance', ['8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'], 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address'],
  ['eth_getBalance', ['0x8db97c7cece249c2b98bdc0226cc4c2a57bf52f'], 'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type common.Address'],
  ['eth_getBalance', ['0x8db97c'], 'invalid argument 0: hex string has length 6, want 40 for common.Address'],
  ['eth_getBalance', ['0x' + 'zz'.repeat(20)], 'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type common.Address'],
  ['eth_getBalance', [42], 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Address'],
  [
    'eth_getTransactionByHash',
    ['1000000000000000000000000000000000000000000000000000000000000001'],
    'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Hash',
  ],
  ['eth_getBlockByHash', ['0x1234', false], 'invalid argument 0: hex string has length 4, want 64 for common.Hash'],
  // rpc.BlockNumber: hexutil.DecodeUint64's texts, unwrapped.
  ['eth_getBlockByNumber', ['2', false], 'invalid argument 0: hex string without 0x prefix'],
  ['eth_getBlockByNumber', [2, false], 'invalid argument 0: hex string without 0x prefix'],
  ['eth_getBlockByNumber', ['', false], 'invalid argument 0: empty hex string'],
  ['eth_getBlockByNumber', ['0x', false], 'invalid argument 0: hex string "0x"'],
  ['eth_getBlockByNumber', ['0x01', false], 'invalid argument 0: hex number with leading zero digits'],
  ['eth_getBlockByNumber', ['0xzz', false], 'invalid argument 0: invalid hex string'],
  ['eth_getBlockByNumber', ['0x10000000000000000', false], 'invalid argument 0: hex number > 64 bits'],
  ['eth_getBlockByNumber', ['0x8000000000000000', false], 'invalid argument 0: block number larger than int64'],
  ['eth_getBlockByNumber', ['latest', 'yes'], 'invalid argument 1: json: cannot unmarshal string into Go value of type bool'],
  // rpc.BlockNumberOrHash.
  ['eth_getBalance', [EWOQ_ADDRESS, '0x8000000000000000'], 'invalid argument 1: blocknumber too high'],
  ['eth_getBalance', [EWOQ_ADDRESS, {}], 'invalid argument 1: must specify either BlockHash or BlockNumber'],
  ['eth_getBalance', [EWOQ_ADDRESS, { blockHash: H, blockNumber: '0x0' }], 'invalid argument 1: cannot specify both BlockHash and BlockNumber, choose one or the other'],
  ['eth_getBalance', [EWOQ_ADDRESS, { blockHash: '0x12' }], 'invalid argument 1: json: cannot unmarshal object into Go value of type string'],
  ['eth_getBalance', [EWOQ_ADDRESS, 5], 'invalid argument 1: json: cannot unmarshal number into Go value of type string'],
  ['eth_getBalance', [EWOQ_ADDRESS, '0x' + 'zz'.repeat(32)], 'invalid argument 1: invalid hex string'],
  // hexutil.Bytes / Uint64 / Uint / Big, and fields of TransactionArgs (encoding/json adds the field).
  ['eth_sendRawTransaction', ['0xabc'], 'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type hexutil.Bytes'],
  ['eth_sendRawTransaction', ['0xzz'], 'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type hexutil.Bytes'],
  ['eth_getTransactionByBlockNumberAndIndex', ['0x0', '0x10000000000000000'], 'invalid argument 1: json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint'],
  ['eth_call', [{ to: EWOQ_ADDRESS, gas: '10' }], 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go struct field TransactionArgs.gas of type hexutil.Uint64'],
  ['eth_call', [{ to: EWOQ_ADDRESS, value: '0x01' }], 'invalid argument 0: json: cannot unmarshal hex number with leading zero digits into Go struct field TransactionArgs.value of type *hexutil.Big'],
  ['eth_call', [{ to: '0x12' }], 'invalid argument 0: hex string has length 2, want 40 for common.Address'],
  ['eth_call', ['0x'], 'invalid argument 0: json: cannot unmarshal string into Go value of type ethapi.TransactionArgs'],
  // eth_getStorageAt decodes its key in the handler.
  ['eth_getStorageAt', [EWOQ_ADDRESS, '0x' + '0'.repeat(65), 'latest'], `storage key too long (want at most 32 bytes): "0x${'0'.repeat(65)}"`],
  ['eth_getStorageAt', [EWOQ_ADDRESS, '0xasdf', 'latest'], 'invalid hex in storage key: "0xasdf"'],
]

describe('geth -32602 wording of argument decoding', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node?.close())

  for (const [method, params, message] of CASES) {
    it(`${method} ${JSON.stringify(params).slice(0, 90)}`, async () => {
      const r = await node.rpc(method, params)
      expect(r.error).toEqual({ code: -32602, message })
    })
  }

  it('null for a required bool is false (encoding/json leaves it untouched), as in geth', async () => {
    const r = await node.rpc('eth_getBlockByNumber', ['0x0', null])
    expect(r.error).toBeUndefined()
    expect(r.result.transactions).toEqual([])
  })
})
