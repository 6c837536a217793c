import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The layering of docs/ARCHITECTURE.md, checked from the sources: imports between folders of src/ point one way.
// Each folder directly under src/ is one node (src/engine/tracing belongs to engine); each file directly in src/
// is a node of its own. Inside src/engine/, each sub-folder is a room with a layer of its own (ENGINE_LAYERS).
// Type-only imports count: a cycle of types is still a cycle for a reader.

/**
 * The layers, top to bottom: a node may import only from layers below its own, never from its own
 * layer or above. Folders end in `/`; files directly in src/ are named as they are.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['main.ts'],
  // Composition: the node assembles chains, server and APIs; the CLI's argv and config reference.
  ['node.ts', 'configFromArgs.ts', 'configReference.ts'],
  // Start-up before the node is built: the plan (config, chain files, database) and the early listener.
  ['startup/'],
  ['server/', 'metrics.ts'],
  ['chains/'],
  // Tables: wire name -> schema -> handler.
  ['namespaces/'],
  // The node's ICM relayer: reads and writes every chain's engine, signs with the node's key.
  ['icm/'],
  // The JSON-RPC and gorilla wire: dispatch, schemas, formats, the domain errors' codes.
  ['rpc/'],
  // The development controls: snapshots of the whole node (engine, atomic, the X/P ledgers' reloads), state edits.
  ['dev/'],
  // atomic/ builds on the engine (its blocks carry the atomic txs' bytes).
  ['atomic/'],
  // Peers: none imports another. The X and P wallets spend a keystore user's keys.
  ['engine/', 'xchain/', 'pchain/'],
  ['keystore/'],
  // A fork's origin: JSON-RPC to the node a forked chain started from (batched, bounded, retried).
  ['fork/'],
  // The EVM interpreter: knows nothing of the chain; reads state through the interface it declares (src/evm/types.ts).
  ['evm/'],
  // Leaf-ish modules: the config schema, logging, profiling, the node's identity, health reports.
  ['config.ts', 'log.ts', 'profiler.ts', 'nodeIdentity.ts', 'healthReporter.ts'],
  // coreth's eth-apis service names, which the config schema and the method tables both read.
  ['ethApiNames.ts'],
  // subnet-evm's rules: its chain config, fee algorithm and stateful precompiles, over a state interface of their own.
  ['subnetevm/'],
  // Avalanche Warp: message and payload codecs, BLS signatures and their verification, predicates.
  ['warp/'],
  // The Avalanche primitives: CB58, codec, secp256k1fx and avax components, signatures, networks.
  ['avalanche/'],
  ['store/'],
  ['util/'],
]

/**
 * The engine's rooms (docs/ARCHITECTURE.md "The engine's rooms"), top to bottom, read as LAYERS: a
 * room imports only from rooms below its own. `facade` is the files directly in src/engine/ (engine.ts,
 * the one class the namespaces call, with its options and development half).
 */
const ENGINE_LAYERS: readonly (readonly string[])[] = [
  ['facade'],
  // What the facade composes: signing and filling for the keystore accounts, block production and sends,
  // traces, logs and filters. None imports another.
  ['accounts/', 'mining/', 'tracing/', 'logs/'],
  // The fee oracle: tips and history read from the chain and the pool.
  ['prices/'],
  // Execution of calls, estimates and simulations on the EVM; the transaction pool and its admission.
  ['exec/', 'pool/'],
  // The chain: blocks, receipts, roots, genesis and fork bases, proofs.
  ['chain/'],
  // State (flat view, overlays, tries, writes, pruning, a fork's remote state); the chain's rules
  // (config and upgrades, the header's fee state, the clock).
  ['state/', 'rules/'],
  // The engine's errors and request types.
  ['base/'],
]

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const SRC = join(ROOT, 'src')
const MAX_LINES = 400

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** Every text file below `dir` except vendored fixtures (their upstream texts are theirs). */
function textFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : textFiles(path)
    return /\.(ts|md|json|sol)$/.test(entry.name) ? [path] : []
  })
}

/** Relative specifiers of `import ... from`, `export ... from`, `import '...'` and `import('...')`, type-only ones included. */
function relativeImports(text: string): string[] {
  const found: string[] = []
  const patterns = [/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.[^'"]+)['"]/gms, /^\s*import\s*['"](\.[^'"]+)['"]/gm, /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g]
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1]!)
  return found
}

/** The graph node of a file: its top folder under src/, or the file itself when it lies directly in src/. */
function nodeOf(file: string): string {
  const parts = relative(SRC, file).split(/[\\/]/)
  return parts.length > 1 ? `${parts[0]}/` : parts[0]!
}

type Edge = { from: string; to: string }

const ENGINE = join(SRC, 'engine')

/** The engine room of a file under src/engine/: its sub-folder, or `facade` for a file directly in it. */
function roomOf(file: string): string {
  const parts = relative(ENGINE, file).split(/[\\/]/)
  return parts.length > 1 ? `${parts[0]}/` : 'facade'
}

/** File-level edges: every source file of src/ and the files of src/ it imports. */
function fileGraph(): Map<string, Map<string, Edge>> {
  const graph = new Map<string, Map<string, Edge>>()
  for (const file of sourceFiles(SRC)) {
    const edges = new Map<string, Edge>()
    graph.set(file, edges)
    for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))
      if (target.startsWith(SRC) && target !== file) edges.set(target, { from: relative(ROOT, file), to: relative(ROOT, target) })
    }
  }
  return graph
}

/** Folder-level edges, each with one file-level import that witnesses it. */
function folderGraph(): Map<string, Map<string, Edge>> {
  const graph = new Map<string, Map<string, Edge>>()
  for (const file of sourceFiles(SRC)) {
    const from = nodeOf(file)
    if (!graph.has(from)) graph.set(from, new Map())
    for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))
      if (!target.startsWith(SRC)) continue
      const to = nodeOf(target)
      if (to === from || graph.get(from)!.has(to)) continue
      graph.get(from)!.set(to, { from: relative(ROOT, file), to: relative(ROOT, target) })
    }
  }
  return graph
}

/** Strongly connected components of more than one node (Tarjan). */
function cycles(graph: Map<string, Map<string, Edge>>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  let next = 0
  const visit = (node: string): void => {
    index.set(node, next)
    low.set(node, next)
    next++
    stack.push(node)
    onStack.add(node)
    for (const to of graph.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!))
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1) components.push(component.sort())
    }
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return components
}

/** The file-level imports inside one strongly connected component, so a failure names the lines to move. */
function describeCycle(graph: Map<string, Map<string, Edge>>, component: string[]): string {
  const members = new Set(component)
  const lines = component.flatMap((from) => [...(graph.get(from)?.values() ?? [])].filter((edge) => members.has(nodeOf(join(ROOT, edge.to)))).map((edge) => `  ${edge.from} -> ${edge.to}`))
  return `cycle between ${component.join(', ')}:\n${lines.join('\n')}`
}

describe('architecture', () => {
  it('has no import cycle between the folders of src/ (type imports included)', () => {
    const graph = folderGraph()
    expect(graph.size).toBeGreaterThan(5)
    expect(cycles(graph).map((component) => describeCycle(graph, component))).toEqual([])
  })

  it('imports only downward through LAYERS (every folder and top-level file of src/ has a layer)', () => {
    const layerOf = new Map(LAYERS.flatMap((layer, i) => layer.map((node) => [node, i] as const)))
    const graph = folderGraph()
    const unplaced = [...graph.keys()].filter((node) => !layerOf.has(node)).map((node) => `${node} is in no layer of LAYERS`)
    const upward = [...graph.values()]
      .flatMap((edges) => [...edges.values()])
      .filter((edge) => {
        const from = layerOf.get(nodeOf(join(ROOT, edge.from)))
        const to = layerOf.get(nodeOf(join(ROOT, edge.to)))
        return from !== undefined && to !== undefined && to <= from
      })
      .map((edge) => `${edge.from} -> ${edge.to} does not point to a lower layer`)
    expect([...unplaced, ...upward]).toEqual([])
  })

  it('has no import cycle between the files of src/ (type imports included)', () => {
    const graph = fileGraph()
    expect(graph.size).toBeGreaterThan(100)
    const found = cycles(graph).map((component) => `cycle: ${component.map((file) => relative(ROOT, file)).join(', ')}`)
    expect(found).toEqual([])
  })

  it('imports only downward through ENGINE_LAYERS inside src/engine/ (every room has a layer)', () => {
    const layerOf = new Map(ENGINE_LAYERS.flatMap((layer, i) => layer.map((room) => [room, i] as const)))
    const engineFiles = sourceFiles(ENGINE)
    expect(engineFiles.length).toBeGreaterThan(50)
    const unplaced = [...new Set(engineFiles.map(roomOf))].filter((room) => !layerOf.has(room)).map((room) => `${room} is in no layer of ENGINE_LAYERS`)
    const graph = fileGraph()
    const upward = engineFiles.flatMap((file) =>
      [...graph.get(file)!.keys()]
        .filter((target) => target.startsWith(ENGINE + sep) && roomOf(target) !== roomOf(file))
        .filter((target) => layerOf.get(roomOf(target))! <= layerOf.get(roomOf(file))!)
        .map((target) => `${relative(ROOT, file)} -> ${relative(ROOT, target)} does not point to a lower room`),
    )
    expect([...unplaced, ...upward]).toEqual([])
  })

  it(`has no file in src/ over ${MAX_LINES} lines`, () => {
    const long = sourceFiles(SRC)
      .map((file) => ({ file: relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`)
    expect(long).toEqual([])
  })

  it('keeps error handling in the dispatchers: at most 3 try blocks in all of src/namespaces/', () => {
    const tries = sourceFiles(join(SRC, 'namespaces')).flatMap((file) => {
      const count = (readFileSync(file, 'utf8').match(/\btry\s*\{/g) ?? []).length
      return count === 0 ? [] : [`${relative(ROOT, file)}: ${count}`]
    })
    const total = tries.reduce((sum, line) => sum + Number(line.split(': ')[1]), 0)
    expect(total, tries.join('\n')).toBeLessThanOrEqual(3)
  })

  it('stands alone: no source, test, script or doc reads or cites a file outside the repository', () => {
    // The project's reading material lives beside a checkout in its authors' workspace; a clone has none of it.
    const outside = /\.\.\/shared\b|\b(?:LIMITS|AVALANCHE|DESIGN|STYLE|API-REFERENCE)\.md\b/
    const texts = ['src', 'test', 'scripts', 'docs'].flatMap((dir) => textFiles(join(ROOT, dir))).concat([join(ROOT, 'README.md')])
    const hits = texts.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (outside.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
    )
    expect(hits).toEqual([])
  })

  it('mirrors src/ in test/unit/: every unit test names the source file it tests', () => {
    const unit = join(ROOT, 'test', 'unit')
    const orphans = textFiles(unit)
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => relative(unit, file))
      .filter((rel) => !existsSync(join(SRC, rel.replace(/\.test\.ts$/, '.ts'))))
    expect(orphans).toEqual([])
  })
})
