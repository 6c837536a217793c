import { cb58Encode } from '../avalanche/cb58.js'
import { hrpForNetwork } from '../avalanche/networks.js'
import type { EvmChain } from './evmChain.js'
import type { EvmChainSpec } from './extraChains.js'
import { type SignerKeyAnswer, findSignerKey } from './signerKey.js'

/** One EVM chain as the explorer's chain switch lists it. */
export interface ExplorerChain {
  /** The path segment its APIs are served at (/ext/bc/<path>/rpc): its first alias. */
  readonly path: string
  readonly id: string
  readonly aliases: readonly string[]
  readonly evmChainID: number
  /** Why it is not running (its paths answer 503). */
  readonly error?: string
}

export interface ExplorerInfoInput {
  readonly networkID: number
  readonly network: { readonly xChainID: Uint8Array; readonly pChainID: Uint8Array; readonly avaxAssetID: Uint8Array }
  /** The C-Chain first, then the extra chains, running or not. */
  readonly chains: readonly { readonly spec: Pick<EvmChainSpec, 'id' | 'aliases'> & { readonly evmChainID: number }; readonly chain?: EvmChain; readonly error?: string }[]
}

/** /explorer/chains.json and /explorer/key.json (docs/API.md, "Explorer"): what the page needs beyond the public APIs. */
export function explorerInfo(input: ExplorerInfoInput): { chains(): unknown; key(chain: string, address: string): SignerKeyAnswer } {
  const hrp = hrpForNetwork(input.networkID)
  const list: ExplorerChain[] = input.chains.map(({ spec, error }) => ({
    path: spec.aliases[0] ?? spec.id,
    id: spec.id,
    aliases: spec.aliases,
    evmChainID: spec.evmChainID,
    ...(error !== undefined && { error }),
  }))
  const doc = {
    networkID: input.networkID,
    hrp,
    xChainID: cb58Encode(input.network.xChainID),
    pChainID: cb58Encode(input.network.pChainID),
    avaxAssetID: cb58Encode(input.network.avaxAssetID),
    chains: list,
  }
  const engines = new Map(input.chains.flatMap(({ spec, chain }) => (chain === undefined ? [] : [...spec.aliases, spec.id].map((key) => [key, chain.engine] as const))))
  return {
    chains: () => doc,
    key: (chain, address) => {
      const engine = engines.get(chain)
      return engine === undefined ? { found: false, error: `unknown chain ${JSON.stringify(chain)}` } : findSignerKey(engine, address, hrp)
    },
  }
}
