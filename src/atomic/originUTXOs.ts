/**
 * A fork's atomic side (docs/FORK.md): the UTXOs the origin's X and P chains exported to this chain
 * and the origin has not imported yet. avalanchego's atomic API has no "as of block N", so they are
 * the origin's as of the first query for an address on the fork (its block N when the fork was made
 * at the origin's latest block). They go into this chain's shared memory once per (address, source
 * chain), with a mark in the same batch: from then on they are the fork's own, an import here
 * consumes them for good, and the origin is never asked again for that address.
 */
import type { Logger } from 'pino'
import { decodeUTXO, utxoInputID } from '../avalanche/avax.js'
import { cb58Encode } from '../avalanche/cb58.js'
import { TYPE_ID } from '../avalanche/codec.js'
import { decodeBytes } from '../avalanche/encoding.js'
import { type ChainAliases, primaryAlias } from '../avalanche/networks.js'
import { recoverSigner } from '../avalanche/signature.js'
import { ForkError, OriginHttpError, OriginRpcError } from '../fork/errors.js'
import type { OriginClient } from '../fork/originClient.js'
import type { OriginUTXOMarks } from '../store/originUTXOMarks.js'
import type { SharedElement, SharedMemory } from '../store/sharedMemory.js'
import { type AtomicTx, signingHash } from './tx.js'
import type { UnsignedImportTx } from './types.js'

/** avalanchego's maxUTXOsToFetch and coreth's maxGetUTXOsAddrs: one page, and the addresses of one query. */
const PAGE = 1024
const MAX_ADDRESSES = 1024

/** avax.getUTXOs's answer (api.GetUTXOsReply). */
interface UTXOPage {
  utxos?: unknown
  endIndex?: { address?: unknown; utxo?: unknown }
}

export interface OriginUTXOsDeps {
  /** The chain's origin now (undefined: not a fork); anvil_reset may fork another. */
  origin(): OriginClient | undefined
  sharedMemory: SharedMemory
  marks: OriginUTXOMarks
  /** The X and P chain IDs (their aliases name them to the origin) and this chain's. */
  chains: ChainAliases
  /** The chains this one imports from (the C-Chain: X and P; an extra chain: none). */
  peerChains: readonly Uint8Array[]
  /** Runs `fn` with no block built, reverted or reset meanwhile (the engine's dev.exclusive). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>
  log: Logger
}

const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')

/** `.../ext/bc/<chain>/rpc` -> `.../ext/bc/<chain>/avax`; any other path has no atomic API. */
export function avaxPath(rpcPath: string): string | undefined {
  const m = /^(.*\/ext\/bc\/[^/]+)\/rpc\/?$/.exec(rpcPath)
  return m === null ? undefined : `${m[1]}/avax`
}

/** An answer saying the origin has no atomic API: a 404 at the path, or no such method or service. */
function noAtomicAPI(err: unknown): boolean {
  if (err instanceof OriginHttpError) return err.status === 404 || err.status === 405
  if (err instanceof OriginRpcError) return err.code === -32601 || /can't find (method|service)|method not found|does not exist|not supported/i.test(err.originMessage)
  return false
}

/** Fetches a fork origin's atomic UTXOs into shared memory, once per (address, source chain). */
export class OriginUTXOs {
  /** Each origin's avax endpoint; null once it proved to be a plain EVM origin (decided once per origin). */
  private readonly endpoints = new WeakMap<OriginClient, OriginClient | null>()
  /** One fetch at a time: two queries for one address must not put its UTXOs twice. */
  private queue: Promise<void> = Promise.resolve()

  constructor(private readonly deps: OriginUTXOsDeps) {}

  /** Before a listing of `addresses` from `sourceChain`: the origin's UTXOs of the addresses not fetched yet. */
  fetch(addresses: readonly Uint8Array[], sourceChain: Uint8Array): Promise<void> {
    if (this.deps.origin() === undefined || !this.deps.peerChains.some((c) => Buffer.compare(c, sourceChain) === 0)) return Promise.resolve()
    if (this.unfetched(addresses, sourceChain).length === 0) return Promise.resolve()
    const run = this.queue.then(() => this.fetchNow(addresses, sourceChain))
    this.queue = run.catch(() => undefined)
    return run
  }

  /**
   * Before an import is verified: one built against the origin's UTXOs (its inputs not in shared
   * memory yet) fetches them for the addresses that signed it, the owners its credentials name.
   */
  async fetchForImport(tx: AtomicTx, utx: UnsignedImportTx): Promise<void> {
    if (this.deps.origin() === undefined) return
    const found = this.deps.sharedMemory.get(
      'inbound',
      utx.sourceChain,
      utx.importedInputs.map((i) => utxoInputID(i.utxoID)),
    )
    if (found.every((v) => v !== undefined)) return
    const hash = signingHash(tx.unsignedBytes)
    const signers = new Map<string, Uint8Array>()
    for (const cred of tx.tx.creds) {
      if (cred.typeID !== TYPE_ID.Credential) continue
      for (const sig of cred.sigs) {
        // A signature that recovers no key fails verification later, with coreth's error.
        const signer = (() => {
          try {
            return recoverSigner(hash, sig).shortAddress
          } catch {
            return undefined
          }
        })()
        if (signer !== undefined) signers.set(hexOf(signer), signer)
      }
    }
    await this.fetch([...signers.values()], utx.sourceChain)
  }

  private unfetched(addresses: readonly Uint8Array[], sourceChain: Uint8Array): Uint8Array[] {
    const todo = new Map<string, Uint8Array>()
    for (const a of addresses) if (!this.deps.marks.has(sourceChain, a)) todo.set(hexOf(a), a)
    return [...todo.values()]
  }

  private async fetchNow(addresses: readonly Uint8Array[], sourceChain: Uint8Array): Promise<void> {
    const origin = this.deps.origin()
    const todo = this.unfetched(addresses, sourceChain)
    if (origin === undefined || todo.length === 0) return
    const avax = this.endpoint(origin)
    if (avax === null) return
    const elements: SharedElement[] = []
    for (let i = 0; i < todo.length; i += MAX_ADDRESSES) {
      const listed = await this.list(origin, avax, todo.slice(i, i + MAX_ADDRESSES), sourceChain)
      if (listed === undefined) return
      elements.push(...listed)
    }
    // The origin lists each address's UTXOs newest first, shared memory by insertion, newest first: put them oldest first.
    elements.reverse()
    // Written with no revert or reset under way; an anvil_reset that forked another origin meanwhile makes this answer stale: ask the new one.
    const stale = await this.deps.exclusive(async () => {
      if (this.deps.origin() !== origin) return true
      const write = this.deps.sharedMemory.prepareNew({ direction: 'inbound', peerChain: sourceChain }, elements)
      await this.deps.marks.commit(write, sourceChain, todo)
      return false
    })
    if (stale) return this.fetchNow(addresses, sourceChain)
    this.deps.log.info({ origin: avax.name, sourceChain: primaryAlias(this.deps.chains, sourceChain), addresses: todo.length, utxos: elements.length }, "fork: fetched the origin's atomic UTXOs")
  }

  /** The origin's avax endpoint, or null for a plain EVM origin (an origin's URL not of avalanchego's shape). */
  private endpoint(origin: OriginClient): OriginClient | null {
    let avax = this.endpoints.get(origin)
    if (avax === undefined) {
      // avalanchego's gorilla services take no batches: one call per request.
      avax = origin.sibling(avaxPath, { maxBatch: 1 }) ?? null
      this.endpoints.set(origin, avax)
      if (avax === null) this.plain(origin)
    }
    return avax
  }

  private plain(origin: OriginClient): void {
    this.endpoints.set(origin, null)
    this.deps.log.info({ origin: origin.name }, 'fork: the origin serves no atomic API; avax.getUTXOs lists no UTXOs of it')
  }

  /** Every UTXO the origin lists for `addresses` (page by page); undefined when it has no atomic API. */
  private async list(origin: OriginClient, avax: OriginClient, addresses: Uint8Array[], sourceChain: Uint8Array): Promise<SharedElement[] | undefined> {
    const out: SharedElement[] = []
    const seen = new Set<string>()
    const args = { addresses: addresses.map(cb58Encode), sourceChain: primaryAlias(this.deps.chains, sourceChain), limit: PAGE, encoding: 'hex' }
    let startIndex: { address: unknown; utxo: unknown } | undefined
    for (;;) {
      let page: UTXOPage
      try {
        page = await avax.call<UTXOPage>('avax.getUTXOs', [{ ...args, ...(startIndex !== undefined && { startIndex }) }])
      } catch (err) {
        if (!noAtomicAPI(err)) throw err
        this.plain(origin)
        return undefined
      }
      if (page === null || typeof page !== 'object' || !Array.isArray(page.utxos)) throw new ForkError(`fork origin ${avax.name} answered avax.getUTXOs without a list of UTXOs`)
      let added = 0
      for (const text of page.utxos) {
        const element = this.element(avax, text)
        if (element === undefined || seen.has(hexOf(element.key))) continue
        seen.add(hexOf(element.key))
        out.push(element)
        added++
      }
      // A short page is the last; a page with nothing new (a cursor that does not move) too.
      if (page.utxos.length < PAGE || added === 0) return out
      startIndex = { address: page.endIndex?.address, utxo: page.endIndex?.utxo }
    }
  }

  /** One listed UTXO as a shared-memory value; undefined (logged) for one this chain cannot import (not a secp256k1 transfer output). */
  private element(avax: OriginClient, text: unknown): SharedElement | undefined {
    if (typeof text !== 'string') throw new ForkError(`fork origin ${avax.name} answered avax.getUTXOs with a UTXO that is not a string`)
    const bytes = (() => {
      try {
        return decodeBytes('hex', text)
      } catch (err) {
        throw new ForkError(`fork origin ${avax.name} answered avax.getUTXOs with a UTXO that is not hex: ${(err as Error).message}`)
      }
    })()
    try {
      const utxo = decodeUTXO(bytes)
      return { key: utxoInputID(utxo.utxoID), value: bytes, traits: utxo.out.addrs }
    } catch (err) {
      this.deps.log.warn({ origin: avax.name, err: (err as Error).message }, "fork: skipped an origin's atomic UTXO this chain cannot decode")
      return undefined
    }
  }
}
