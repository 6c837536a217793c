import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AccountManager, ERR_LOCKED, ERR_NO_MATCH } from '../../../../src/engine/accounts/accounts.js'
import { ERR_DECRYPT } from '../../../../src/engine/accounts/keyFile.js'

/** The Web3 Secret Storage definition's test vectors (password "testpassword"). */
const VECTOR_ADDRESS = '0x008aeeda4d805471df9b2a5b0f38a0c3bcba786b'
const VECTOR_KEY = '7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d'
const PBKDF2 = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '6087dab2f9fdbbfaddc31a909735c1e6' },
    ciphertext: '5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46',
    kdf: 'pbkdf2',
    kdfparams: { c: 262144, dklen: 32, prf: 'hmac-sha256', salt: 'ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd' },
    mac: '517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
}
const SCRYPT = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '83dbcc02d8ccb40e466191a123791e0e' },
    ciphertext: 'd172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c',
    kdf: 'scrypt',
    kdfparams: { dklen: 32, n: 262144, p: 8, r: 1, salt: 'ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19' },
    mac: '2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
}

describe('AccountManager (geth keystore)', () => {
  const dirs: string[] = []
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'cchain-keystore-'))
    dirs.push(d)
    return d
  }
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })

  it.each([
    ['pbkdf2', PBKDF2],
    ['scrypt', SCRYPT],
  ])(
    "decrypts the spec's %s test vector",
    async (_, vector) => {
      const d = dir()
      writeFileSync(join(d, 'UTC--vector'), JSON.stringify({ address: VECTOR_ADDRESS.slice(2), ...vector }))
      const accounts = new AccountManager(d)
      expect(await accounts.list()).toEqual([VECTOR_ADDRESS])
      expect(Buffer.from(await accounts.decrypt(VECTOR_ADDRESS, 'testpassword')).toString('hex')).toBe(VECTOR_KEY)
      await expect(accounts.decrypt(VECTOR_ADDRESS, 'testpassword!')).rejects.toThrow(ERR_DECRYPT)
    },
    30_000,
  )

  it('creates, lists in file order, unlocks and locks; skips files that are not keys', async () => {
    const d = dir()
    const accounts = new AccountManager(d, { scryptN: 1024 })
    const a = await accounts.create('pw a')
    await new Promise((r) => setTimeout(r, 5))
    const b = await accounts.create('pw b')
    writeFileSync(join(d, 'README'), 'not a key')
    writeFileSync(join(d, '.hidden'), '{"address":"0000000000000000000000000000000000000001"}')
    // geth lists by file name; its names drop the fraction's trailing zeros (…05.12Z for .120), so a
    // key made later can sort first: the order is the names', not the creation's.
    const keyFiles = readdirSync(d).filter((f) => f.startsWith('UTC--'))
    expect(keyFiles).toHaveLength(2)
    const byName = keyFiles.sort().map((f) => `0x${f.slice(-40)}`)
    expect([...byName].sort()).toEqual([a, b].sort())
    expect(await accounts.list()).toEqual(byName)
    expect(() => accounts.unlockedKey(a)).toThrow(ERR_LOCKED)
    await accounts.unlock(a, 'pw a', 0n)
    expect(accounts.unlockedKey(a)).toHaveLength(32)
    accounts.lock(a)
    expect(() => accounts.unlockedKey(a)).toThrow(ERR_LOCKED)
    await expect(accounts.unlock('0x0000000000000000000000000000000000000002', 'pw', 0n)).rejects.toThrow(ERR_NO_MATCH)
    accounts.close()
  })
})
