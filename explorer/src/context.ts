/** What every page gets: the network, the chain on view, its API, links within it, live heads. */
import { cb58Encode } from './bytes.js'
import type { EvmApi } from './rpc.js'

/** One EVM chain of /explorer/chains.json. */
export interface ExplorerChain {
  path: string
  id: string
  aliases: string[]
  evmChainID: number
  error?: string
}

/** /explorer/chains.json. */
export interface ChainsDoc {
  networkID: number
  hrp: string
  xChainID: string
  pChainID: string
  avaxAssetID: string
  chains: ExplorerChain[]
}

export interface Ctx {
  readonly doc: ChainsDoc
  readonly chain: ExplorerChain
  readonly api: EvmApi
  /** A route within the chain on view: `/block/12` (C-Chain) or `/chain/<path>/block/12`. */
  r(route: string): string
  /** Calls `cb` with each new head while this page is shown. */
  onHead(cb: (header: any) => void): void
  /** Announces a short message to screen readers (the status line). */
  announce(text: string): void
  /** The chain's gorilla paths: its atomic API (`/ext/bc/<path>/avax`), the X-Chain's and P-Chain's. */
  readonly paths: { avax: string; X: string; P: string }
}

/** The name of a chain ID (CB58 or bytes): X, P, C or an extra chain's name. */
export function chainName(doc: ChainsDoc, id: string | Uint8Array): string {
  const text = typeof id === 'string' ? id : cb58Encode(id)
  if (text === doc.xChainID) return 'X'
  if (text === doc.pChainID) return 'P'
  const evm = doc.chains.find((c) => c.id === text)
  return evm === undefined ? text : evm.path
}

/** The primary network's C-Chain is the first of the list. */
export const isCChain = (doc: ChainsDoc, chain: ExplorerChain): boolean => doc.chains[0]?.id === chain.id
