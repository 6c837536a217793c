/**
 * The headless Chromium that the @sparticuz/chromium dev dependency ships brotli-packed in
 * node_modules: no apt, no download, no install script. It is unpacked on first use into
 * `<tmpdir>/cchain-node-chromium-<version>/`, whole or not at all, so that test processes starting
 * at once never see half a browser.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

/** A browser to launch: its executable and what its environment needs on top of ours. */
export interface ChromiumBinary {
  readonly executablePath: string
  readonly env: Readonly<Record<string, string>>
}

/** The package's CommonJS entry (its `exports` hide package.json, which sits two folders up). */
function packageEntry(): string {
  try {
    return createRequire(import.meta.url).resolve('@sparticuz/chromium')
  } catch (err) {
    throw new Error('the explorer tests run the Chromium of the @sparticuz/chromium dev dependency: run `npm ci` (or set CHROMIUM_PATH)', { cause: err })
  }
}

/** The package's version, which is also its Chromium's major version (147.0.0 ships Chromium 147). */
export function npmChromiumVersion(): string {
  return JSON.parse(readFileSync(join(dirname(packageEntry()), '..', '..', 'package.json'), 'utf8')).version
}

/** The package's Chromium, unpacked under `root` unless it already is. */
export async function npmChromium(root = tmpdir()): Promise<ChromiumBinary> {
  const dir = join(root, `cchain-node-chromium-${npmChromiumVersion()}`)
  if (!existsSync(dir)) await unpack(dir)
  // The temporary folder is everyone's: run only a browser this user unpacked.
  if (statSync(dir).uid !== process.getuid!()) throw new Error(`${dir} belongs to another user: remove it, or set TMPDIR`)
  return {
    executablePath: join(dir, 'chromium'),
    env: {
      // The package's NSS and expat: a bare Debian (node:20-slim) has no libnss3.
      LD_LIBRARY_PATH: [join(dir, 'al2023', 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_FILE: join(dir, 'fonts.conf'),
    },
  }
}

/** Unpacks into a private folder beside `dir`, then renames it to `dir`; a process that loses the race keeps the winner's copy. */
async function unpack(dir: string): Promise<void> {
  const staging = mkdtempSync(`${dir}.partial-`)
  try {
    // In a child process: the package unpacks into os.tmpdir(), and its libraries only where it
    // believes it runs on Amazon Linux 2023, which it reads from the environment.
    const script = `require(${JSON.stringify(packageEntry())}).executablePath().then((path) => process.stdout.write(path))`
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
      env: { ...process.env, TMPDIR: staging, AWS_LAMBDA_JS_RUNTIME: 'nodejs20.x' },
      timeout: 120_000,
    })
    if (stdout !== join(staging, 'chromium') || !existsSync(join(staging, 'al2023', 'lib', 'libnss3.so'))) {
      throw new Error(`@sparticuz/chromium unpacked into an unexpected place (${stdout}): see its executablePath()`)
    }
    // The package's fonts.conf names /tmp/fonts; this one keeps the system's fonts and adds its Open Sans.
    writeFileSync(
      join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<fontconfig>\n  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n  <dir>${join(dir, 'fonts', 'fonts')}</dir>\n</fontconfig>\n`,
    )
    try {
      renameSync(staging, dir)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY' && (err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}
