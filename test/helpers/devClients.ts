import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createTestClient, defineChain, http, publicActions } from 'viem'
import { afterAll, beforeAll } from 'vitest'
import { startTestNode, type TestNode, type TestNodeOptions } from './testNode.js'

/** Foundry's cast, as test/integration/clients.test.ts runs it. */
export const CAST = join(process.cwd(), 'node_modules/@foundry-rs/cast-linux-amd64/bin/cast')
/** Foundry's forge from the npm package @foundry-rs/forge-linux-amd64 (installed by test/tools, as cast's). */
export const FORGE = join(process.cwd(), 'node_modules/@foundry-rs/forge-linux-amd64/bin/forge')
export const runFile = promisify(execFile)

/** viem's test client in anvil or hardhat mode, with the public actions, on a test node. */
export function devTestClient(node: TestNode, mode: 'anvil' | 'hardhat') {
  const chain = defineChain({ id: 43112, name: 'local', nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } })
  return createTestClient({ mode, chain, transport: http(node.url) }).extend(publicActions)
}

export type DevTestClient = ReturnType<typeof devTestClient>

/** A node started before the describe's tests and closed after them, with viem's test client and `cast rpc` on it. */
export function devNode(mode: 'anvil' | 'hardhat', opts?: TestNodeOptions): { node: TestNode; client: DevTestClient; cast: (...args: string[]) => Promise<any> } {
  const ctx = {
    cast: async (...args: string[]) => JSON.parse((await runFile(CAST, ['rpc', '--rpc-url', ctx.node.url, ...args], { timeout: 20_000 })).stdout),
  } as { node: TestNode; client: DevTestClient; cast: (...args: string[]) => Promise<any> }
  beforeAll(async () => {
    ctx.node = await startTestNode(opts)
    ctx.client = devTestClient(ctx.node, mode)
  })
  afterAll(() => ctx.node.close())
  return ctx
}

/** `cast <args...>`: its output, trimmed. */
export async function cast(...args: string[]): Promise<string> {
  return (await runFile(CAST, args)).stdout.trim()
}

/** `cast rpc --rpc-url <url> <method> <params...>`: its output, trimmed (JSON of the result). */
export function castRpc(url: string, method: string, ...params: string[]): Promise<string> {
  return cast('rpc', '--rpc-url', url, method, ...params)
}

/** The local network (chain ID 43112) as viem's clients take it, served at `url`. */
export function localChain(url: string) {
  return { id: 43112, name: 'local', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } } as const
}
