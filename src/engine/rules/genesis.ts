import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { ETH_BLOCK_KEYS } from '../../subnetevm/chainConfigJson.js'

const Hex = z.string().regex(/^0x[0-9a-fA-F]*$/, 'expected 0x-prefixed hex')
const HexOrNumber = z.union([Hex, z.number().int().nonnegative()]).transform((v) => BigInt(v))

const GenesisAccount = z.object({
  balance: HexOrNumber.default(0n),
  nonce: HexOrNumber.optional(),
  code: Hex.optional(),
  storage: z.record(z.string(), Hex).optional(),
})

/** coreth's genesis JSON (core/genesis.go): the chain config plus the first block and its allocation. */
export const GenesisFile = z.object({
  config: z.looseObject({ chainId: z.number().int().positive() }),
  nonce: HexOrNumber.default(0n),
  timestamp: HexOrNumber.default(0n),
  extraData: Hex.default('0x'),
  gasLimit: HexOrNumber,
  // Absent: geth's GenesisDifficulty for a subnet-evm chain (genesisBlock.ts); 0 on coreth's chains here.
  difficulty: HexOrNumber.optional(),
  mixHash: Hex.nullish().transform((v) => v ?? undefined),
  coinbase: Hex.nullish().transform((v) => v ?? undefined),
  alloc: z.record(z.string(), GenesisAccount).default({}),
  number: HexOrNumber.default(0n),
  gasUsed: HexOrNumber.default(0n),
  parentHash: Hex.nullish().transform((v) => v ?? undefined),
  // avalanche-cli writes null for the fields a genesis leaves to the chain's rules.
  baseFeePerGas: HexOrNumber.nullish().transform((v) => v ?? undefined),
})
export type Genesis = z.output<typeof GenesisFile>

// Found from src/engine (tests) and dist/src/engine (the built node) alike.
const LOCAL_GENESIS_PATH = [new URL('../../../config/local-genesis.json', import.meta.url), new URL('../../../../config/local-genesis.json', import.meta.url)]
  .map((u) => fileURLToPath(u))
  .find((p) => existsSync(p))!

/** Reads a genesis file (default: the local network's C-Chain genesis, config/local-genesis.json). */
export function loadGenesis(path?: string): Genesis {
  return readGenesisFile(path).genesis
}

/** A genesis file parsed, with its JSON as written (an extra chain's blockchain ID is derived from it). */
export function readGenesisFile(path?: string): { genesis: Genesis; json: unknown } {
  const file = path ?? LOCAL_GENESIS_PATH
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    throw new Error(`genesis file ${file}: ${(err as Error).message}`)
  }
  const parsed = GenesisFile.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new Error(`genesis file ${file}: ${issue.path.join('.')}: ${issue.message}`)
  }
  return { genesis: parsed.data, json: raw }
}

/** avalanchego upgrade.Default: every upgrade active at InitiallyActiveTime on non-public networks. */
export const INITIALLY_ACTIVE_TIME = 1607144400
/** An upgrade not scheduled (avalanchego UnscheduledActivationTime, 9999-12-01). */
export const UNSCHEDULED_TIME = 253399622400

/** Helicon's activation on Mainnet and Fuji (avalanchego v1.15 upgrade/upgrade.go): 2026-09-22 and 2026-07-28, 15:00 UTC. */
const HELICON_TIMES: Record<number, number> = { 1: 1790089200, 5: 1785250800 }

/**
 * When a chain on `networkId` turns Helicon on (seconds): Mainnet's and Fuji's dates, from genesis
 * on any other network (avalanchego v1.15.1's local networks); unscheduled for a chain kept at
 * Granite (chain config `hardfork`).
 */
export function heliconTimeOf(networkId: number, helicon: boolean): number {
  return helicon ? (HELICON_TIMES[networkId] ?? INITIALLY_ACTIVE_TIME) : UNSCHEDULED_TIME
}

const UPGRADE_TIMES: Record<string, number> = {
  apricotPhase1BlockTimestamp: INITIALLY_ACTIVE_TIME,
  apricotPhase2BlockTimestamp: INITIALLY_ACTIVE_TIME,
  apricotPhase3BlockTimestamp: INITIALLY_ACTIVE_TIME,
  apricotPhase4BlockTimestamp: INITIALLY_ACTIVE_TIME,
  apricotPhase5BlockTimestamp: INITIALLY_ACTIVE_TIME,
  apricotPhasePre6BlockTimestamp: INITIALLY_ACTIVE_TIME,
  apricotPhase6BlockTimestamp: INITIALLY_ACTIVE_TIME,
  apricotPhasePost6BlockTimestamp: INITIALLY_ACTIVE_TIME,
  banffBlockTimestamp: INITIALLY_ACTIVE_TIME,
  cortinaBlockTimestamp: INITIALLY_ACTIVE_TIME,
  durangoBlockTimestamp: INITIALLY_ACTIVE_TIME,
  etnaTimestamp: INITIALLY_ACTIVE_TIME,
  fortunaTimestamp: INITIALLY_ACTIVE_TIME,
  graniteTimestamp: INITIALLY_ACTIVE_TIME,
}

/** geth's fork blocks coreth's config carries, through Muir Glacier (Berlin and London are at block 0). */
const GETH_BLOCK_FIELDS = ETH_BLOCK_KEYS.slice(0, ETH_BLOCK_KEYS.indexOf('muirGlacierBlock') + 1)

/**
 * The live chain config as coreth's eth_getChainConfig marshals it (coreth: internal/ethapi/api_extra.go; libevm: params/json.libevm.go): one flat
 * object, keys sorted, network upgrade times in place of the genesis file's, Berlin/London at
 * block 0, Shanghai = Durango, Cancun = Etna; `eip150Hash` and precompile upgrades omitted.
 */
export function chainConfigJSON(genesis: Genesis, heliconTime: number): Record<string, number | boolean> {
  const cfg = genesis.config as Record<string, unknown>
  const out: Record<string, number | boolean> = { chainId: genesis.config.chainId }
  for (const key of GETH_BLOCK_FIELDS) out[key] = typeof cfg[key] === 'number' ? (cfg[key] as number) : 0
  out.daoForkSupport = cfg.daoForkSupport === undefined ? true : Boolean(cfg.daoForkSupport)
  out.berlinBlock = 0
  out.londonBlock = 0
  Object.assign(out, UPGRADE_TIMES)
  out.heliconTimestamp = heliconTime
  out.shanghaiTime = UPGRADE_TIMES.durangoBlockTimestamp!
  out.cancunTime = UPGRADE_TIMES.etnaTimestamp!
  return Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((k) => [k, out[k]!]),
  )
}
