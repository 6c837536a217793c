/**
 * toGorillaError: the one mapping of the gorilla-style endpoints (/avax, /native, /ext/info,
 * /ext/health, /ext/keystore, X, P, admin), fed one instance of every exported domain error class;
 * and withContext, the `problem ...: <inner error>` wrapping of avalanchego's services.
 */
import { describe, expect, it, vi } from 'vitest'
import type { Logger } from 'pino'
import { APIError, isDomainError, toGorillaError, toJsonRpcError, withContext } from '../../../src/rpc/errors.js'
import { APIError as GorillaAPIError } from '../../../src/rpc/gorilla.js'
import * as atomicErrors from '../../../src/atomic/errors.js'
import { MempoolFullError } from '../../../src/atomic/mempool.js'
import * as avalancheErrors from '../../../src/avalanche/errors.js'
import { AccountError } from '../../../src/engine/accounts/accountError.js'
import * as engineErrors from '../../../src/engine/base/errors.js'
import * as keystoreErrors from '../../../src/keystore/errors.js'
import { ProfilerError } from '../../../src/profiler.js'
import { ConfigError } from '../../../src/config.js'
import { SharedMemoryError } from '../../../src/store/sharedMemory.js'

/** One instance of each domain error class, by class name. */
const instances: Record<string, Error> = {
  AvalancheError: new avalancheErrors.AvalancheError('avalanche'),
  CodecError: new avalancheErrors.CodecError("couldn't unpack codec version"),
  VerifyError: new avalancheErrors.VerifyError('tx has no imported inputs'),
  FormatError: new avalancheErrors.FormatError('invalid input checksum'),
  SignatureError: new avalancheErrors.SignatureError('invalid signature'),
  AtomicError: new atomicErrors.AtomicError('problem parsing transaction: x'),
  AlreadyKnownError: new atomicErrors.AlreadyKnownError('already known: tx x is pending'),
  MempoolFullError: new MempoolFullError('mempool full'),
  EngineError: new engineErrors.EngineError('engine'),
  TxRejectedError: new engineErrors.TxRejectedError('nonce too low'),
  ExecutionRevertedError: new engineErrors.ExecutionRevertedError(Uint8Array.of(1, 2), 'nope'),
  ExecutionFailedError: new engineErrors.ExecutionFailedError('out of gas'),
  NotFoundError: new engineErrors.NotFoundError('header not found'),
  InvalidParamsError: new engineErrors.InvalidParamsError('invalid block range params'),
  LimitExceededError: new engineErrors.LimitExceededError('query returned more than 2 results'),
  StateUnavailableError: new engineErrors.StateUnavailableError('missing trie node'),
  SimulateError: new engineErrors.SimulateError('blockNumberInvalid', 'block numbers must be in order'),
  ExecutionAbortedError: new engineErrors.ExecutionAbortedError('execution aborted (timeout = 5s)'),
  RequestTimeoutError: new engineErrors.RequestTimeoutError(),
  TxFailedInBlockError: new engineErrors.TxFailedInBlockError('Transaction ran out of gas', '0xab', new Uint8Array(), true),
  AccountError: new AccountError('unknown account'),
  KeystoreError: new keystoreErrors.KeystoreError('user already exists: alice'),
  IncorrectPasswordError: new keystoreErrors.IncorrectPasswordError('alice'),
  TooManyAttemptsError: new keystoreErrors.TooManyAttemptsError(1500),
  KeystoreBusyError: new keystoreErrors.KeystoreBusyError(),
  ProfilerError: new ProfilerError('cpu profiling already started'),
}

/** gorilla's answers that are not -32000 with the error's own message. */
const notServerError: Record<string, number> = { LimitExceededError: -32005, TooManyAttemptsError: -32005 }

const silent = (): Logger & { error: ReturnType<typeof vi.fn> } => ({ error: vi.fn() }) as unknown as Logger & { error: ReturnType<typeof vi.fn> }

const errorClasses = (mod: Record<string, unknown>): [string, unknown][] => Object.entries(mod).filter(([, v]) => typeof v === 'function' && (v as { prototype?: unknown }).prototype instanceof Error)

describe('toGorillaError', () => {
  it('covers every exported domain error class', () => {
    for (const mod of [avalancheErrors, atomicErrors, engineErrors, keystoreErrors]) {
      for (const [name, Cls] of errorClasses(mod)) {
        expect(instances[name], name).toBeInstanceOf(Cls as new () => Error)
        expect(instances[name]!.constructor, name).toBe(Cls)
      }
    }
  })

  it.each(Object.entries(instances))('answers %s with its own message', (name, err) => {
    const log = silent()
    expect(isDomainError(err)).toBe(true)
    expect(toGorillaError(err, log, 'avax.issueTx')).toEqual({ code: notServerError[name] ?? -32000, message: err.message })
    expect(log.error).not.toHaveBeenCalled()
  })

  it('answers the same code and message as /rpc wherever /rpc answers -32000 or -32005', () => {
    for (const err of Object.values(instances)) {
      const rpc = toJsonRpcError(err)
      if (rpc.code === -32000 || rpc.code === -32005) expect(toGorillaError(err)).toEqual({ code: rpc.code, message: rpc.message })
    }
  })

  it('keeps keystore throttling at -32005 with its text', () => {
    expect(toGorillaError(new keystoreErrors.TooManyAttemptsError(1500))).toEqual({ code: -32005, message: 'too many failed attempts, try again in 2 s' })
    expect(toGorillaError(new keystoreErrors.IncorrectPasswordError('bob'))).toEqual({ code: -32000, message: 'incorrect password: user "bob"' })
  })

  it('passes an APIError through with its code; gorilla.ts re-exports the same class', () => {
    expect(GorillaAPIError).toBe(APIError)
    expect(toGorillaError(new APIError('no addresses provided'))).toEqual({ code: -32000, message: 'no addresses provided' })
    expect(toGorillaError(new APIError('slow down', -32005))).toEqual({ code: -32005, message: 'slow down' })
  })

  it.each([
    ['a TypeError', new TypeError('secret cause')],
    ['a store error', new SharedMemoryError('secret cause')],
    ['a config error', new ConfigError('secret cause')],
    ['a string', 'secret cause'],
    ['undefined', undefined],
  ])('hides %s as "internal error" and logs it with the method', (_, err) => {
    const log = silent()
    expect(toGorillaError(err, log, 'info.getNodeID')).toEqual({ code: -32000, message: 'internal error' })
    expect(log.error).toHaveBeenCalledWith({ err, method: 'info.getNodeID' }, 'internal error in API handler')
  })
})

describe('withContext', () => {
  it('prefixes a domain error thrown synchronously, keeping its gorilla code', () => {
    const run = (err: Error) => () =>
      withContext('couldn\'t parse address "x": ', () => {
        throw err
      })
    expect(run(new avalancheErrors.FormatError('no separator found in address'))).toThrow(new APIError('couldn\'t parse address "x": no separator found in address'))
    let thrown: unknown
    try {
      withContext("couldn't get user 'a': ", () => {
        throw new keystoreErrors.TooManyAttemptsError(3000)
      })
    } catch (err) {
      thrown = err
    }
    expect(thrown).toBeInstanceOf(APIError)
    expect(toGorillaError(thrown)).toEqual({ code: -32005, message: "couldn't get user 'a': too many failed attempts, try again in 3 s" })
  })

  it('prefixes a domain error of a rejected promise', async () => {
    const p = withContext('problem retrieving data: ', async () => {
      throw new keystoreErrors.IncorrectPasswordError('alice')
    })
    await expect(p).rejects.toThrow(new APIError('problem retrieving data: incorrect password: user "alice"'))
  })

  it('returns the value, sync or async', async () => {
    expect(withContext('x: ', () => 7)).toBe(7)
    await expect(withContext('x: ', async () => 8)).resolves.toBe(8)
  })

  it('passes anything else through unchanged: an APIError keeps its text, an unknown error stays internal', async () => {
    const api = new APIError('already final')
    expect(() =>
      withContext('x: ', () => {
        throw api
      }),
    ).toThrow(api)
    const bug = new TypeError('bug')
    expect(() =>
      withContext('x: ', () => {
        throw bug
      }),
    ).toThrow(bug)
    await expect(
      withContext('x: ', async () => {
        throw bug
      }),
    ).rejects.toBe(bug)
  })
})
