/** The explorer's built-in 4-byte table (explorer/src/selectors.ts): every entry is keccak256 of its signature; calls, logs and reverts decode. */
import { AbiCoder, Interface, id } from 'ethers'
import { describe, expect, it } from 'vitest'
import { ERROR_SELECTOR, EVENTS, FUNCTIONS, PANIC_SELECTOR, decodeCall, decodeLog, decodeRevert, selectorOf, topicOf } from '../../explorer/src/selectors.js'

describe('explorer selectors', () => {
  it('keys each function by the first 4 bytes of keccak256 of its signature, each event by the whole hash', () => {
    for (const [selector, f] of Object.entries(FUNCTIONS)) expect(id(`${f.name}(${f.inputs.join(',')})`).slice(0, 10), f.name).toBe(selector)
    for (const [topic, e] of Object.entries(EVENTS)) expect(id(`${e.name}(${e.inputs.join(',')})`), e.name).toBe(topic)
    expect(id('Error(string)').slice(0, 10)).toBe(ERROR_SELECTOR)
    expect(id('Panic(uint256)').slice(0, 10)).toBe(PANIC_SELECTOR)
  })

  it('decodes an ERC-20 transfer call and Transfer log as ethers encodes them', () => {
    const erc20 = new Interface(['function transfer(address to, uint256 value)', 'event Transfer(address indexed from, address indexed to, uint256 value)'])
    const to = '0x' + '22'.repeat(20)
    expect(decodeCall(erc20.encodeFunctionData('transfer', [to, 1234n]))).toEqual({
      name: 'transfer',
      args: [
        { type: 'address', value: to },
        { type: 'uint256', value: '1234' },
      ],
    })
    const log = erc20.encodeEventLog('Transfer', ['0x' + '11'.repeat(20), to, 5n])
    expect(decodeLog(log.topics, log.data)?.args.map((a) => a.value)).toEqual(['0x' + '11'.repeat(20), to, '5'])
    expect(decodeCall('0xdeadbeef')).toBeUndefined()
    expect(decodeCall('0xa9059cbb' + '00'.repeat(20))).toBeUndefined()
  })

  it('finds a selector and a topic by name (the precompiles page calls readAllowList and reads RoleSet)', () => {
    expect(selectorOf('readAllowList')).toBe(id('readAllowList(address)').slice(0, 10))
    expect(topicOf('RoleSet')).toBe(id('RoleSet(uint256,address,address,uint256)'))
    expect(() => selectorOf('nope')).toThrow('nope is not in the table')
  })

  it('reads revert data: Error(string) and Panic(uint256)', () => {
    const coder = AbiCoder.defaultAbiCoder()
    expect(decodeRevert(ERROR_SELECTOR + coder.encode(['string'], ['not enough tokens']).slice(2))).toBe('not enough tokens')
    expect(decodeRevert(PANIC_SELECTOR + coder.encode(['uint256'], [0x11]).slice(2))).toBe('panic 0x11: arithmetic overflow or underflow')
    expect(decodeRevert('0x')).toBeUndefined()
    expect(decodeRevert('0x12345678')).toBeUndefined()
  })
})
