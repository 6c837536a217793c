/**
 * The package as users get it (issue 24): `npm pack` of a copy of this checkout without dist/ (so
 * `prepare` builds it), what the tarball holds, then the tarball installed twice as users install it,
 * `npm install <tgz>` run through `npx cchain-node` and `npm i -g` run through `<prefix>/bin/cchain-node`,
 * each started on port 0, asked eth_chainId and its explorer page, and stopped by its PID.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { cpSync, existsSync, lstatSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { poll } from '../helpers/chain.js'
import { readStart, rpcAt } from '../helpers/childNode.js'
import { tempDirs } from '../helpers/tempDirs.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)
const tempDir = tempDirs('cchain-package-')

/** What the tarball may hold: the compiled node and explorer, the explorer's page, the default genesis, the example chains. */
const SHIPPED = /^(dist\/src\/.+\.js|dist\/explorer\/.+\.js|explorer\/(index\.html|explorer\.css|favicon\.svg)|config\/local-genesis\.json|examples\/chains\/.+\.json|package\.json|README\.md)$/

/**
 * Our environment without the prefixes `npm test` sets for this checkout (the npm commands below act
 * on their temporary folders only), and with the Node.js running this suite first on PATH: the bin's
 * `#!/usr/bin/env node` runs on it (Node.js 24 under .ci/run).
 */
const NPM_ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_(config_(local_|global_)?prefix$|package_|lifecycle_)/.test(key))),
  PATH: [dirname(process.execPath), process.env.PATH].join(delimiter),
}

let tarball: string
let files: string[]
/** The folder `npm install <tgz>` ran in, and the prefix of `npm i -g`. */
let project: string
let globalPrefix: string
/** Process groups started here, stopped in afterAll if a test failed before stopping them. */
const groups = new Set<number>()

/** Runs npm with the npm cache `npm ci` filled; the registry is asked only for what the cache lacks. */
function npm(args: string[], cwd: string): Promise<{ stdout: string }> {
  return run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], { cwd, env: NPM_ENV, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 })
}

beforeAll(async () => {
  const checkout = tempDir()
  cpSync(ROOT, checkout, { recursive: true, filter: (path) => !['node_modules', 'dist', '.git', 'test-output'].some((skip) => path === join(ROOT, skip)) })
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'))
  const packDir = tempDir()
  const [packed] = JSON.parse((await npm(['pack', '--json', '--pack-destination', packDir], checkout)).stdout)
  tarball = join(packDir, packed.filename)
  files = packed.files.map((file: { path: string }) => file.path)
  project = tempDir()
  // A project of one's own: with no package.json here, npm would install into the first folder above holding node_modules.
  writeFileSync(join(project, 'package.json'), '{ "private": true }\n')
  globalPrefix = tempDir()
  await Promise.all([npm(['install', tarball], project), npm(['install', '--global', '--prefix', globalPrefix, tarball], globalPrefix)])
}, 300_000)

afterAll(() => {
  for (const pid of groups) signalGroup(pid, 'SIGKILL')
  tempDir.removeAll()
})

/** Sends `signal` to the process group `pid`; false when none of it is left. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw err
  }
}

/** Starts `command` as the leader of a new process group: npx does not pass SIGTERM on to the node it starts. */
function startGroup(command: string, args: string[], cwd: string): ChildProcess {
  const proc = spawn(command, args, { cwd, env: NPM_ENV, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  groups.add(proc.pid!)
  return proc
}

/** SIGTERM to the group of `proc`, then waits until all of it has exited. */
async function stopGroup(proc: ChildProcess): Promise<void> {
  signalGroup(proc.pid!, 'SIGTERM')
  await poll(async () => (signalGroup(proc.pid!, 0) ? undefined : true), `process group ${proc.pid} to exit`, 30_000)
  groups.delete(proc.pid!)
}

it('the tarball holds the compiled node and explorer, the explorer page, the default genesis, the examples and the README: no sources, tests, fixtures or scripts', () => {
  expect(files.filter((file) => !SHIPPED.test(file))).toEqual([])
  expect(files.filter((file) => /^(src|test|scripts|docs|dist\/scripts|explorer\/src)\/|\.ts$|\.map$/.test(file))).toEqual([])
  expect(files).toEqual(expect.arrayContaining(['dist/src/main.js', 'dist/explorer/main.js', 'explorer/index.html', 'config/local-genesis.json', 'README.md']))
})

/** The bytes of the files under `dir` and the disk they take as `du` counts it (blocks allocated, folders included); symlinks as themselves. */
function sizeOf(dir: string): { bytes: number; disk: number } {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (n, e) => {
      const path = join(dir, e.name)
      if (e.isDirectory()) {
        const inner = sizeOf(path)
        return { bytes: n.bytes + inner.bytes, disk: n.disk + inner.disk + lstatSync(path).blocks * 512 }
      }
      const stat = lstatSync(path)
      return { bytes: n.bytes + stat.size, disk: n.disk + stat.blocks * 512 }
    },
    { bytes: 0, disk: 0 },
  )
}

it("installs none of the tests' tools into a project (Foundry's binaries, Hardhat, solc, a browser, vitest, ethers), and under 100 MB of node_modules", () => {
  const modules = join(project, 'node_modules')
  for (const tool of ['@foundry-rs', 'cchain-node-test-tools', 'hardhat', 'solc', 'puppeteer-core', '@sparticuz', 'vitest', 'viem', 'ethers']) expect(existsSync(join(modules, tool)), tool).toBe(false)
  const { bytes, disk } = sizeOf(modules)
  expect(bytes).toBeLessThan(100 * 1000 * 1000)
  expect(disk).toBeLessThan(100 * 1000 * 1000)
})

/** The bin npm linked: a symlink to dist/src/main.js, which starts with its shebang. */
function expectLinkedBin(bin: string): void {
  expect(lstatSync(bin).isSymbolicLink()).toBe(true)
  expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node')
}

/** Runs `command` in `cwd` on port 0: it answers eth_chainId and serves the explorer, then stops on SIGTERM. */
async function expectServes([command, ...args]: string[], cwd: string): Promise<void> {
  const proc = startGroup(command!, [...args, '--http-port', '0', '--data-dir', tempDir()], cwd)
  const { url } = await readStart(proc, 60_000)
  expect(await rpcAt(url, 'eth_chainId')).toBe('0xa868')
  // The client version names the Node.js the node runs on: this suite's, one the package supports.
  expect(await rpcAt(url, 'web3_clientVersion')).toMatch(new RegExp(`/node${process.versions.node.replaceAll('.', '\\.')}$`))
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(Number(/>=(\d+)/.exec(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node)![1]))
  // The page and a script: explorerAssets.ts found the installed package's files.
  const origin = new URL(url).origin
  const page = await fetch(`${origin}/explorer/`)
  expect(page.status).toBe(200)
  expect(await page.text()).toBe(readFileSync(join(ROOT, 'explorer', 'index.html'), 'utf8'))
  expect((await fetch(`${origin}/explorer/js/main.js`)).status).toBe(200)
  await stopGroup(proc)
}

it('npx cchain-node after npm install <tgz>: starts on port 0 on this Node.js (24 in CI), answers eth_chainId, serves the explorer, stops', async () => {
  expectLinkedBin(join(project, 'node_modules', '.bin', 'cchain-node'))
  // --yes=false: were the installed bin not found, npx would fail rather than fetch a cchain-node from the registry.
  await expectServes(['npx', '--yes=false', 'cchain-node'], project)
})

it('<prefix>/bin/cchain-node after npm i -g --prefix <prefix> <tgz>: starts on port 0, answers eth_chainId, serves the explorer, stops', async () => {
  const bin = join(globalPrefix, 'bin', 'cchain-node')
  expectLinkedBin(bin)
  await expectServes([bin], globalPrefix)
})
