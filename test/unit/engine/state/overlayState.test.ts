import { Account, Address, KECCAK256_NULL, KECCAK256_RLP, bytesToHex, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import type { StateReader } from '../../../../src/engine/state/flatView.js'
import { OverlayState } from '../../../../src/engine/state/overlayState.js'
import { keccak256 } from '../../../../src/util/crypto.js'

/*
 * The journaled overlay the EVM runs on: reads fall through to the block's state, writes stay in
 * the overlay, and checkpoints nest and revert exactly (the EVM's call frames rely on it).
 */

const ALICE = new Address(hexToBytes('0x00000000000000000000000000000000000000a1'))
const TOKEN = new Address(hexToBytes('0x00000000000000000000000000000000000000c0'))
const slot = (n: number) => {
  const s = new Uint8Array(32)
  s[31] = n
  return s
}
const CODE = Uint8Array.of(0x60, 0x00)

/** A block's state with Alice (100 wei) and a token contract holding slot 1 = 0x2a. */
function base(): StateReader {
  const token = new Account(1n, 0n, hexToBytes(`0x${'11'.repeat(32)}`), keccak256(CODE))
  return {
    getAccount: async (a) => (a.equals(ALICE) ? new Account(0n, 100n) : a.equals(TOKEN) ? token : undefined),
    getStorage: async (a, k) => (a.equals(TOKEN) && k[31] === 1 ? Uint8Array.of(0x2a) : new Uint8Array(0)),
    getCode: async () => new Uint8Array(0),
  }
}
const codeSource = (hash: Uint8Array) => (bytesToHex(hash) === bytesToHex(keccak256(CODE)) ? CODE : undefined)

describe('OverlayState', () => {
  it('reads through to the base and never hands out its own account object', async () => {
    const sm = new OverlayState(base(), codeSource)
    expect((await sm.getAccount(ALICE))?.balance).toBe(100n)
    await sm.putAccount(ALICE, new Account(1n, 50n))
    const a = (await sm.getAccount(ALICE))!
    a.balance = 0n
    expect((await sm.getAccount(ALICE))?.balance).toBe(50n)
    expect(bytesToHex(await sm.getCode(TOKEN))).toBe(bytesToHex(CODE))
    expect(bytesToHex(await sm.getStorage(TOKEN, slot(1)))).toBe('0x2a')
  })

  it('nested checkpoints: an inner revert keeps the outer writes, an outer revert undoes both', async () => {
    const sm = new OverlayState(base(), codeSource)
    await sm.checkpoint()
    await sm.putStorage(TOKEN, slot(1), Uint8Array.of(1))
    await sm.modifyAccountFields(ALICE, { balance: 90n })
    await sm.checkpoint()
    await sm.putStorage(TOKEN, slot(1), Uint8Array.of(2))
    await sm.putStorage(TOKEN, slot(2), Uint8Array.of(3))
    await sm.deleteAccount(ALICE)
    await sm.revert()
    expect(bytesToHex(await sm.getStorage(TOKEN, slot(1)))).toBe('0x01')
    expect((await sm.getStorage(TOKEN, slot(2))).length).toBe(0)
    expect((await sm.getAccount(ALICE))?.balance).toBe(90n)
    await sm.revert()
    expect(bytesToHex(await sm.getStorage(TOKEN, slot(1)))).toBe('0x2a')
    expect((await sm.getAccount(ALICE))?.balance).toBe(100n)
  })

  it('a committed inner checkpoint is undone by the outer revert', async () => {
    const sm = new OverlayState(base(), codeSource)
    await sm.checkpoint()
    await sm.checkpoint()
    await sm.putCode(ALICE, CODE)
    await sm.commit()
    expect(bytesToHex(await sm.getCode(ALICE))).toBe(bytesToHex(CODE))
    await sm.revert()
    expect((await sm.getCode(ALICE)).length).toBe(0)
    expect(bytesToHex((await sm.getAccount(ALICE))!.codeHash)).toBe(bytesToHex(KECCAK256_NULL))
    expect(sm.changes().codes.size).toBe(0)
  })

  it('clearStorage hides the base slots and empties the storage root; a revert brings them back', async () => {
    const sm = new OverlayState(base(), codeSource)
    await sm.getAccount(TOKEN).then((a) => sm.putAccount(TOKEN, a))
    await sm.checkpoint()
    await sm.clearStorage(TOKEN)
    expect((await sm.getStorage(TOKEN, slot(1))).length).toBe(0)
    expect(bytesToHex((await sm.getAccount(TOKEN))!.storageRoot)).toBe(bytesToHex(KECCAK256_RLP))
    await sm.putStorage(TOKEN, slot(3), Uint8Array.of(0, 0, 9))
    expect(bytesToHex(await sm.getStorage(TOKEN, slot(3)))).toBe('0x09')
    const c = sm.changes()
    expect([...c.cleared]).toEqual([bytesToHex(TOKEN.bytes).slice(2)])
    await sm.revert()
    expect(bytesToHex(await sm.getStorage(TOKEN, slot(1)))).toBe('0x2a')
    expect(sm.changes().cleared.size).toBe(0)
  })

  it('the original-value cache answers the value at the start of the transaction (EIP-2200 gas)', async () => {
    const sm = new OverlayState(base(), codeSource)
    await sm.checkpoint()
    expect(bytesToHex(await sm.originalStorageCache.get(TOKEN, slot(1)))).toBe('0x2a')
    await sm.putStorage(TOKEN, slot(1), Uint8Array.of(5))
    expect(bytesToHex(await sm.originalStorageCache.get(TOKEN, slot(1)))).toBe('0x2a')
    await sm.commit()
    expect(bytesToHex(await sm.originalStorageCache.get(TOKEN, slot(1)))).toBe('0x05')
  })

  it('reset drops every write', async () => {
    const sm = new OverlayState(base(), codeSource)
    await sm.putAccount(ALICE, new Account(5n, 5n))
    await sm.putStorage(TOKEN, slot(1), Uint8Array.of(1))
    sm.reset()
    expect((await sm.getAccount(ALICE))?.nonce).toBe(0n)
    expect(bytesToHex(await sm.getStorage(TOKEN, slot(1)))).toBe('0x2a')
    expect(sm.changes().accounts.size).toBe(0)
  })

  it("apply writes another execution's changes as its own writes would (the interpreter's block transactions): changesSince reads them back, a revert undoes them", async () => {
    const source = new OverlayState(base(), codeSource)
    // What an execution on the same state wrote, taken as changesSince hands it over: a new contract with code and storage, a deleted account's storage gone, a slot changed.
    await source.checkpoint()
    const mark = source.mark()
    const NEW = new Address(hexToBytes('0x00000000000000000000000000000000000000b2'))
    await source.putAccount(NEW, new Account(1n, 7n))
    await source.putCode(NEW, Uint8Array.of(0x60, 0x01))
    await source.putStorage(NEW, slot(3), Uint8Array.of(9))
    await source.putStorage(TOKEN, slot(1), Uint8Array.of(0, 0, 5))
    await source.deleteAccount(ALICE)
    const changes = source.changesSince(mark)

    const sm = new OverlayState(base(), codeSource)
    await sm.checkpoint()
    const at = sm.mark()
    sm.apply(changes)
    expect((await sm.getAccount(NEW))?.balance).toBe(7n)
    expect(bytesToHex(await sm.getCode(NEW))).toBe('0x6001')
    expect(bytesToHex(await sm.getStorage(NEW, slot(3)))).toBe('0x09')
    expect(bytesToHex(await sm.getStorage(TOKEN, slot(1)))).toBe('0x05')
    expect(await sm.getAccount(ALICE)).toBeUndefined()
    const again = sm.changesSince(at)
    expect([...again.accounts.keys()].sort()).toEqual([...changes.accounts.keys()].sort())
    expect(again.cleared).toEqual(changes.cleared)
    expect(again.storage).toEqual(changes.storage)
    expect(again.codes).toEqual(changes.codes)
    await sm.revert()
    expect(await sm.getAccount(NEW)).toBeUndefined()
    expect(bytesToHex(await sm.getStorage(TOKEN, slot(1)))).toBe('0x2a')
    expect((await sm.getAccount(ALICE))?.balance).toBe(100n)
    expect((await sm.getCode(NEW)).length).toBe(0)
  })
})
