#!/usr/bin/env node
import { isIP } from 'node:net'
import { setFlagsFromString } from 'node:v8'
import { ConfigError } from './config.js'
import { ForkError } from './fork/errors.js'
import { configFromArgs } from './configFromArgs.js'
import { deferredLogger } from './log.js'
import { startListening } from './startup/startListening.js'

/**
 * CLI: read flags, start the node, print its URLs, stop cleanly on SIGINT/SIGTERM. It listens as soon
 * as the database is open and loads the engine and the APIs after that (docs/PERFORMANCE.md, "Start-up").
 */
async function main(argv: string[]): Promise<void> {
  // V8 grows the old generation up to 4x the live heap after a full GC when it judges GC cheap; under a
  // steady stream of short-lived buffers that left 500 MB of heap (and their freed backing stores) for
  // 150 MB live. 20% keeps the heap near what is live at the same CPU per request (docs/PERFORMANCE.md, "Memory").
  setFlagsFromString('--heap-growing-percent=20')
  if (argv.includes('--help') || argv.includes('-h')) {
    const { helpText } = await import('./configReference.js')
    process.stdout.write(helpText() + '\n')
    return
  }
  const config = configFromArgs(argv)
  const { log, root } = deferredLogger(config.logLevel, config.logFormat)
  // A host name (`localhost`) is left to Fastify, which binds every address it resolves to.
  const start = isIP(config.httpHost) !== 0 ? await startListening(config, log) : undefined
  const { createNode } = await import('./node.js')
  const node = await createNode(config, { log: root(), start }).catch(async (err: unknown) => {
    await start?.listener.close()
    throw err
  })
  const { host, port } = await node.listen()
  const shownHost = host.includes(':') ? `[${host}]` : host
  const base = `http://${shownHost}:${port}`
  const head = node.engine.head.header.number
  process.stdout.write(
    [
      `cchain-node listening (EVM chain ID ${node.engine.chainId}, network ID ${config.networkId}, head block ${head}, data ${config.dataDir})`,
      `  JSON-RPC   ${base}/ext/bc/C/rpc`,
      `  WebSocket  ws://${shownHost}:${port}/ext/bc/C/ws`,
      `  also at    ${base}/ext/bc/${node.blockchainId}/rpc`,
      `  atomic     ${base}/ext/bc/C/avax`,
      `  X-Chain    ${base}/ext/bc/X`,
      `  P-Chain    ${base}/ext/bc/P`,
      `  info       ${base}/ext/info`,
      ...(node.explorer !== undefined ? [`  explorer   ${base}${node.explorer}`] : []),
      ...node.extraChains.flatMap(({ spec, chain, error }) => [
        `chain ${spec.name} (blockchain ID ${spec.id}, EVM chain ID ${spec.genesis.config.chainId}${chain !== undefined ? `, head block ${chain.engine.head.header.number}` : ''})`,
        ...(chain !== undefined
          ? [`  JSON-RPC   ${base}/ext/bc/${spec.name}/rpc`, `  WebSocket  ws://${shownHost}:${port}/ext/bc/${spec.name}/ws`, `  also at    ${base}/ext/bc/${spec.id}/rpc`]
          : [`  FAILED TO START: ${error}`]),
      ]),
      '',
    ].join('\n'),
  )
  if (host !== '127.0.0.1' && host !== '::1' && host !== 'localhost') {
    node.log.warn({ host }, 'listening on a non-loopback address: anyone who can reach it can use this node')
  }
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    node.log.info({ signal }, 'stopping')
    node.close().then(
      () => process.exit(0),
      (err) => {
        node.log.error({ err }, 'error while stopping')
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

main(process.argv.slice(2)).catch(async (err: unknown) => {
  // The store loads after the node listens (src/startup/): here only when something failed.
  const { DataDirLockedError } = await import('./store/db.js')
  // One line for what the user can fix: the config, a locked data directory, a fork's origin (docs/FORK.md).
  if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof ForkError) {
    process.stderr.write(`cchain-node: ${err.message}\n`)
  } else {
    process.stderr.write(`cchain-node: ${(err as Error)?.stack ?? String(err)}\n`)
  }
  process.exit(1)
})
